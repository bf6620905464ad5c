/// An optional number member that must lie from 0 to 1 (`os/setConditions`'s
/// `batteryLevel`, the policy's chances), checked as the member is read, so that its error
/// comes in member order: a request with a battery level of 1.5 and a string
/// `lowPowerMode` is told about the battery.
///
/// Absent reads as nil; `null` or another type is the protocol's usual "must be a
/// finite number" error; a number outside the range is "must be a number from 0 to 1, got
/// 1.5". nil is left out when written.
///
/// ```swift
/// struct Params: Codable { @UnitInterval var batteryLevel: Double? }
/// ```
public typealias UnitInterval = InRangeIfPresent<Fraction>

/// The numbers from 0 to 1: a chance, a battery level.
public enum Fraction: DoubleRange {
    /// 0 to 1.
    public static let bounds = 0.0...1
}
