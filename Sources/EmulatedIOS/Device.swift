import HostProtocol

/// The emulated device's settings, shared by the scheduler and the OS controls.
package final class Device {
    package var conditions = Conditions.defaults
}
