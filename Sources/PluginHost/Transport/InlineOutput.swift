/// A transport whose output can be handed to one consumer on the thread that made it,
/// with no reader thread: the plugin's engine in this process (`InProcessTransport`).
///
/// A ``PluginConnection`` over such a transport starts no reader thread. It installs
/// itself as the consumer, and after each write (outside its writer lock) it calls
/// ``pump()``, which hands the answers the write produced to it at once, on the writing
/// thread. A call to an in-process engine is then answered without a thread hop: the
/// two context switches of every round trip through a reader thread are gone
/// (`docs/benchmarks.md`, "One thread for the built-in engine").
///
/// Output is handed over in the order it was made, by one thread at a time: a thread
/// that pumps while another (or itself, further up its stack) is handing output over
/// returns at once, and the one handing over takes what was added meanwhile before it
/// stops. So an answer usually arrives before the write that asked for it returns, but
/// not always: when another thread, or this one further up, is handing output over,
/// that one delivers it, possibly after this write has returned. The consumer runs on
/// whichever thread pumps: it must not block waiting for output (only its own thread
/// could hand it over) or take a lock that a writer holds while it writes.
package protocol InlineOutput: PluginTransport {
    /// Installs the consumer: from now on the output goes to it, through ``pump()``, and
    /// ``PluginTransport/receive(into:)`` is not used. The last chunk is ``InlineOutputChunk/end(_:)``.
    func deliverInline(to consumer: @escaping @Sendable (InlineOutputChunk) -> Void)

    /// Hands the output made so far to the consumer on this thread, unless it is
    /// being handed over already.
    func pump()
}

/// What an ``InlineOutput`` transport hands its consumer.
package enum InlineOutputChunk: Sendable {
    /// Output bytes, in order (frames may be split across chunks).
    case bytes([UInt8])
    /// The output has ended, with the plugin's status; nothing follows.
    case end(ExitStatus)
}
