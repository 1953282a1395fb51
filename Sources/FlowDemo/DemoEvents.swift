import FlowKit

/// The login screen accepted `account`'s credentials. The login flow handles it by
/// finishing with the account (`FlowFinished<Account>`), which the app root handles.
struct CredentialsAccepted: FlowEvent {
    let account: Account
}

/// The user picked `book` on the list. The main flow handles it by pushing the detail screen.
struct BookSelected: FlowEvent {
    let book: Book
}

/// The user asked to sign out, from the list or the detail screen. It bubbles up to the app
/// root, which switches to a new login flow and so tears the whole main flow down.
struct LogoutRequested: FlowEvent {}
