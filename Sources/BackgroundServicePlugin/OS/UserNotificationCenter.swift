/// The emulated `UNUserNotificationCenter`: the seed only asks for authorization, once, at
/// load; the request is recorded (`plugin/state`'s `notificationAuthorizationRequests`), and
/// nothing is shown.
final class UserNotificationCenter {
    /// The options the seed asks for.
    struct AuthorizationOptions: OptionSet {
        let rawValue: Int
        static let alert = AuthorizationOptions(rawValue: 1)
        static let sound = AuthorizationOptions(rawValue: 2)
        static let badge = AuthorizationOptions(rawValue: 4)
    }

    /// How many times authorization was requested.
    private(set) var authorizationRequests = 0

    /// `requestAuthorization(options:completionHandler:)`; the seed ignores the answer.
    func requestAuthorization(options: AuthorizationOptions) {
        authorizationRequests += 1
    }
}
