/// The emulated `UNUserNotificationCenter`: the seed only asks for authorization, once, at
/// load; the request is recorded (`plugin/state`'s `notificationAuthorizationRequests`), and
/// nothing is shown.
package final class UserNotificationCenter {
    /// The options the seed asks for.
    package struct AuthorizationOptions: OptionSet {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let alert = AuthorizationOptions(rawValue: 1)
        package static let sound = AuthorizationOptions(rawValue: 2)
        package static let badge = AuthorizationOptions(rawValue: 4)
    }

    /// How many times authorization was requested.
    package private(set) var authorizationRequests = 0

    /// A center with no request yet.
    package init() {}

    /// `requestAuthorization(options:completionHandler:)`; the seed ignores the answer.
    package func requestAuthorization(options: AuthorizationOptions) {
        authorizationRequests += 1
    }
}
