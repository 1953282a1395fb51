import FlowKit

/// The login screen accepted `account`'s credentials. The login flow handles it by
/// finishing with the account, which the app root awaits.
struct CredentialsAccepted: FlowEvent {
    let account: Account
}

/// The user picked `book` on the list. The main flow handles it by pushing the detail screen.
struct BookSelected: FlowEvent {
    let book: Book
}

/// The user asked to sign out, from the list or the detail screen. It bubbles up to the main
/// flow, which finishes; the app root, awaiting it, switches to a new login flow and so tears
/// the whole main flow down.
struct LogoutRequested: FlowEvent {}
