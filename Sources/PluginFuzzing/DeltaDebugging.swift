/// Zeller's ddmin: removes chunks of a failing sequence, then single elements,
/// while the failure persists; used for plugin steps and system actions alike.
enum DeltaDebugging {
    /// The smallest subsequence found that still passes `stillFails`, trying at
    /// most until `attempts` reaches `budget`.
    static func minimize<T>(_ input: [T], budget: Int, attempts: inout Int, stillFails: ([T]) -> Bool) -> [T] {
        var items = input
        var n = 2
        func test(_ candidate: [T]) -> Bool {
            attempts += 1
            return stillFails(candidate)
        }
        while items.count >= 2, attempts < budget {
            let chunk = Int((Double(items.count) / Double(n)).rounded(.up))
            var reduced = false
            var start = 0
            while start < items.count, attempts < budget {
                let end = min(start + chunk, items.count)
                let complement = Array(items[..<start] + items[end...])
                if !complement.isEmpty, test(complement) {
                    items = complement
                    n = max(n - 1, 2)
                    reduced = true
                    break
                }
                start = end
            }
            if !reduced {
                if n >= items.count { break }
                n = min(n * 2, items.count)
            }
        }
        var i = 0
        while i < items.count, items.count > 1, attempts < budget {
            var candidate = items
            candidate.remove(at: i)
            if test(candidate) { items = candidate } else { i += 1 }
        }
        return items
    }
}
