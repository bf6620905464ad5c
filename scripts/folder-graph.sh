#!/usr/bin/env bash
# Prints the folder graph of Sources/ and fails on a cycle.
#
#   scripts/folder-graph.sh            the graph; exit 1 if two folders use each other
#   scripts/folder-graph.sh --dot      the same graph in Graphviz's dot
#   scripts/folder-graph.sh --why      each edge with the names that make it
#   scripts/folder-graph.sh --self-test  checks the script on a small tree of its own
#
# A folder is a directory holding Swift files (Sources/HostCLI/Demo, or a target's
# root, Sources/HostCLI). Folder A uses folder B when a file of A names a type, a
# protocol, a type alias or a top-level function that a file of B declares at its top
# level (`struct Foo`, `extension` excluded), comments and string literals left out.
# Inside a target a name resolves to its own target's declaration; across targets
# only through an `import` of the target that declares it (so the edges between
# targets are the imports, refined to the folders actually used). A member added by
# an `extension` counts for the extended type's folder, since the script sees names,
# not types. Between targets SwiftPM already forbids a cycle, so a cycle can only be
# inside one target; the script fails on any strongly connected set of two or more
# folders, printing its members and the edges between them, unless that exact set is
# listed in scripts/folder-cycles.known (the loops left from before the graph was
# checked, one per line: the folders, comma-separated; the list only shrinks: a known
# loop that gains or loses a folder is a new one).
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
# FOLDER_GRAPH_ROOT: another tree to read (the self-test's); the package's by default.
cd "${FOLDER_GRAPH_ROOT:-$(dirname "$0")/..}"
case "${1-}" in
    "" | --dot | --why) ;;
    -h | --help) sed -n '2,22p' "$self" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --self-test)
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        put() { mkdir -p "$tmp/$(dirname "$1")"; printf '%s\n' "$2" >"$tmp/$1"; }
        fail() { echo "folder-graph self-test: $1" >&2; exit 1; }
        run() { FOLDER_GRAPH_ROOT="$tmp" "$self" "$@"; }
        put Sources/T/A/A.swift 'struct A { let b: B }'
        put Sources/T/B/B.swift 'struct B { var x = 1 }  // names A in a comment
let label = "and A in a string"'
        put Sources/U/U.swift 'import T
struct U { let a: A }'
        out=$(run 2>/dev/null) || fail "a tree without a loop failed"
        for edge in "T/A -> T/B" "T/B -> (nothing)" "U -> [T]"; do
            grep -qxF "$edge" <<<"$out" || fail "no line \"$edge\" in: $out"
        done
        put Sources/T/B/B+A.swift 'extension B { func a() -> A { A(b: self) } }'
        run >/dev/null 2>"$tmp/err" && fail "a loop (T/A <-> T/B) passed"
        grep -qxF "folder cycle: T/A, T/B" "$tmp/err" || fail "the loop was not named: $(cat "$tmp/err")"
        put scripts/folder-cycles.known 'T/B, T/A'
        run >/dev/null 2>&1 || fail "a known loop failed"
        put Sources/T/C/C.swift 'struct C { let a: A }'
        put Sources/T/A/A+C.swift 'extension A { var c: C? { nil } }'
        run >/dev/null 2>&1 && fail "a known loop that grew (T/C joined it) passed"
        echo "folder-graph self-test: passed"
        exit 0
        ;;
    *) echo "folder-graph.sh: unknown argument \"$1\"" >&2; exit 64 ;;
esac
find Sources -name '*.swift' | LC_ALL=C sort | perl -e '
use strict; use warnings;
my $dot = ($ARGV[0] // "") eq "--dot";
my %known;
if (open my $kh, "<", "scripts/folder-cycles.known") {
    while (<$kh>) { chomp; s/\s+//g; next if $_ eq "" || /^#/; $known{join(",", sort split /,/)} = 1; }
}
my $why = ($ARGV[0] // "") eq "--why";
my (%declIn, %text, %folderOf, %targetOf, %imports, %folders);
for my $file (map { chomp; $_ } <STDIN>) {
    my ($target) = $file =~ m{^Sources/([^/]+)/};
    (my $folder = $file) =~ s{^Sources/}{}; $folder =~ s{/[^/]+$}{};
    open my $fh, "<", $file or die "$file: $!";
    local $/; my $src = <$fh>; close $fh;
    # Comments and string literals out (multi-line strings, then lines, then comments).
    $src =~ s{"""(?:.|\n)*?"""}{""}g;
    $src =~ s{/\*(?:.|\n)*?\*/}{}g;
    $src =~ s{"(?:[^"\\\n]|\\.)*"}{""}g;
    $src =~ s{//[^\n]*}{}g;
    $text{$file} = $src; $folderOf{$file} = $folder; $targetOf{$file} = $target; $folders{$folder} = 1;
    for my $line (split /\n/, $src) {
        $imports{$file}{$1} = 1 if $line =~ /^\s*(?:\@\w+\s+)?(?:public\s+|package\s+|internal\s+)?import\s+(\w+)/;
        if ($line =~ /^(?:\@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias|func)\s+([A-Za-z_]\w*)/) {
            $declIn{$target}{$1}{$folder} = 1;
        }
    }
}
my (%edge, %names);
for my $file (keys %text) {
    my ($t, $f) = ($targetOf{$file}, $folderOf{$file});
    my %seen;
    for my $name ($text{$file} =~ /\b([A-Za-z_]\w*)\b/g) {
        next if $seen{$name}++;
        my @homes = exists $declIn{$t}{$name} ? keys %{ $declIn{$t}{$name} }
            : map { exists $declIn{$_}{$name} ? keys %{ $declIn{$_}{$name} } : () } keys %{ $imports{$file} // {} };
        for my $h (@homes) { next if $h eq $f; $edge{$f}{$h} = 1; $names{$f}{$h}{"$name ($file)"} = 1; }
    }
}
my @nodes = sort keys %folders;
if ($why) {
    for my $n (@nodes) {
        for my $m (sort keys %{ $edge{$n} // {} }) {
            print "$n -> $m\n"; print "    $_\n" for sort keys %{ $names{$n}{$m} };
        }
    }
    exit 0;
}
if ($dot) {
    print "digraph folders {\n";
    for my $n (@nodes) { print "  \"$n\" -> \"$_\";\n" for sort keys %{ $edge{$n} // {} }; }
    print "}\n";
} else {
    # Edges into another target are shown by target (their folders are in its own lines).
    for my $n (@nodes) {
        my ($nt) = split m{/}, $n;
        my (%inside, %outside);
        for my $m (keys %{ $edge{$n} // {} }) {
            my ($mt) = split m{/}, $m;
            if ($mt eq $nt) { $inside{$m} = 1 } else { $outside{$mt} = 1 }
        }
        my @out = ((sort keys %inside), map { "[$_]" } sort keys %outside);
        print "$n -> ", (@out ? join(", ", @out) : "(nothing)"), "\n";
    }
}
# Tarjan: every strongly connected set of two or more folders is a cycle.
my ($index, @stack, %onStack, %idx, %low, @cycles) = (0);
my $visit; $visit = sub {
    my $v = shift;
    $idx{$v} = $low{$v} = $index++; push @stack, $v; $onStack{$v} = 1;
    for my $w (sort keys %{ $edge{$v} // {} }) {
        if (!exists $idx{$w}) { $visit->($w); $low{$v} = $low{$w} if $low{$w} < $low{$v}; }
        elsif ($onStack{$w}) { $low{$v} = $idx{$w} if $idx{$w} < $low{$v}; }
    }
    if ($low{$v} == $idx{$v}) {
        my @scc; my $w;
        do { $w = pop @stack; $onStack{$w} = 0; push @scc, $w } while ($w ne $v);
        push @cycles, [sort @scc] if @scc > 1;
    }
};
for my $n (@nodes) { $visit->($n) unless exists $idx{$n}; }
my @new = grep { !$known{join(",", @$_)} } @cycles;
my %found = map { join(",", @$_) => 1 } @cycles;
for my $c (sort keys %known) {
    print STDERR "folder-graph: known loop ($c) ", ($found{$c} ? "still there" : "gone: remove it from scripts/folder-cycles.known"), "\n";
}
if (@new) {
    for my $c (@new) {
        my %in = map { $_ => 1 } @$c;
        print STDERR "folder cycle: ", join(", ", @$c), "\n";
        for my $a (@$c) { for my $b (sort keys %{ $edge{$a} }) { print STDERR "  $a -> $b\n" if $in{$b}; } }
    }
    exit 1;
}
print STDERR "folder-graph: ", scalar(@nodes), " folders, no new cycle\n" unless $dot;
' -- "$@"
