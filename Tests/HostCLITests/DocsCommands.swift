import Foundation

/// A command shown in `README.md` or `docs/*.md`, as the docs test finds it.
struct DocsCommand: Sendable, CustomStringConvertible {
    /// `docs/fuzzing.md:8`.
    let place: String
    /// The command line as shown (continuation lines joined, `$ ` and trailing comments dropped).
    let line: String
    /// Lines typed into it (a transcript's `▶` lines).
    var input: [String] = []
    /// What the docs show it printing (a transcript's other lines); `…` or `...` skips lines.
    var output: [String] = []
    /// Marked `illustrative` (a trailing comment saying so, or `<!-- illustrative -->` before its block).
    var illustrative = false

    var description: String { "\(place): \(line)" }

    /// Whether the docs show what it prints: then it is run for real and compared.
    var isTranscript: Bool { !output.isEmpty }
}

/// Finds the commands in Markdown: every line of a `sh`/`bash` block, every `$ ` line of
/// another block (with its `▶` input and its output, up to the next `$ ` line), and inline
/// code that is a whole command line (`swift run ...`, `plugin-host SUBCOMMAND --...`,
/// `scripts/....sh ...`), not a synopsis with placeholders (`FILE`, `[SECONDS]`).
enum DocsCommandFinder {
    static func commands(in text: String, file: String) -> [DocsCommand] {
        var found: [DocsCommand] = []
        let lines = text.components(separatedBy: "\n")
        var fence: String?
        var illustrativeBlock = false
        var pending = ""
        var pendingStart = 0
        var transcript: DocsCommand?
        func flushTranscript() {
            if let t = transcript { found.append(t) }
            transcript = nil
        }
        for (index, raw) in lines.enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if fence == nil {
                    fence = String(trimmed.dropFirst(3))
                    let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                    illustrativeBlock = previous?.contains("<!-- illustrative -->") == true
                } else {
                    flushTranscript()
                    fence = nil
                }
                continue
            }
            guard let language = fence else {
                found += inlineCommands(raw, place: "\(file):\(index + 1)")
                continue
            }
            let isShell = ["sh", "bash", "shell", "console"].contains(language)
            if isShell || trimmed.hasPrefix("$ ") || !pending.isEmpty {
                if pending.isEmpty {
                    if trimmed.isEmpty || (isShell && trimmed.hasPrefix("#")) { continue }
                    pendingStart = index + 1
                }
                let body = pending.isEmpty && trimmed.hasPrefix("$ ") ? String(trimmed.dropFirst(2)) : trimmed
                if body.hasSuffix("\\") {
                    pending += body.dropLast() + " "
                    continue
                }
                let (command, comment) = splitComment(pending + body)
                pending = ""
                var c = DocsCommand(place: "\(file):\(pendingStart)", line: command)
                c.illustrative = illustrativeBlock || comment.contains("illustrative")
                if isShell {
                    found.append(c)
                } else {
                    flushTranscript()
                    transcript = c
                }
            } else if var t = transcript {
                if trimmed.hasPrefix("▶ ") {
                    t.input.append(String(trimmed.dropFirst(2)))
                } else if !trimmed.isEmpty {
                    t.output.append(raw)
                }
                transcript = t
            }
        }
        flushTranscript()
        return found
    }

    /// A command line and its trailing `# comment` (a `#` after a space, outside quotes).
    static func splitComment(_ line: String) -> (String, String) {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let c = line[index]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "#", previous == " " {
                return (line[..<index].trimmingCharacters(in: .whitespaces), String(line[index...]))
            }
            previous = c
        }
        return (line.trimmingCharacters(in: .whitespaces), "")
    }

    static func inlineCommands(_ line: String, place: String) -> [DocsCommand] {
        let spans = line.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        return spans.filter(isWholeCommand).map { DocsCommand(place: place, line: $0) }
    }

    static func isWholeCommand(_ span: String) -> Bool {
        let words = span.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return false }
        let starts =
            span.hasPrefix("swift run ")
            || (words[0] == "plugin-host" && words.count >= 3)
            || (words[0].hasPrefix("scripts/") && words[0].hasSuffix(".sh"))
            || (words[0] == "background-service-plugin" && words[1].hasPrefix("--"))
        let placeholder =
            span.contains("[") || span.contains("|") || span.contains("...")
            || words.contains { $0.count > 1 && $0.allSatisfy { $0.isUppercase || $0 == "_" } }
        return starts && !placeholder
    }
}
