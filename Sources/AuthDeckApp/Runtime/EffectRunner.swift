import AppData
import AuthClient
import Foundation
import Logging
import Synchronization

/// Performs the model's effects on the `Auth` actor and the app-data store, and turns each
/// outcome into an event. It never touches the terminal: `send` queues the event and wakes
/// the run loop, which owns curses.
public final class EffectRunner: Sendable {
    let auth: Auth
    let cart: CartStore
    /// The emulator's outboxes; nil where the backend has none (a real Firebase project).
    let outbox: AuthEmulatorOutbox?
    /// This console's owner secret for the simulated providers: on a shared backend, the people it adds are its own.
    let simulatedIdentityOwner: String?
    /// What of the outbox this session may read.
    let control: SessionControl
    /// When each outbox message was first read, and which emails were opened or refused.
    let outboxHistory = OutboxHistory()
    /// The operator's admin API; nil where this console may not see the accounts view.
    let accounts: AccountsConnection?
    /// The accounts view's next automatic refresh, replaced by each new one.
    let refreshTimer = Mutex<Task<Void, Never>?>(nil)
    /// How often the accounts view reloads its page by itself (new accounts from visitors appear).
    let accountsRefreshInterval: Duration
    let send: @Sendable (ConsoleEvent) -> Void
    /// The room channel under `authdeck ssh`; nil elsewhere.
    let room: RoomClient?
    /// Reloads the signed-in account now and then (`observe`).
    let quietReload: QuietReload
    private let logger: Logger
    /// The link conflict's other account, signed in on an `Auth` of its own for the preview.
    let conflictProbe = Mutex<ConflictProbe?>(nil)
    /// The account a merge switched from, on its own session, while its deletion waits for a
    /// recent sign-in to it (Firebase's `prevUser`, reauthenticated then deleted).
    private let previousAccount = Mutex<Auth?>(nil)
    /// The guest account a sign-in left, on its own session: a pending link that finishes on the
    /// account signed in to deletes it, as the conflict's merge deletes its previous account.
    private let leftGuest = Mutex<Auth?>(nil)
    /// Effects wait here and run one at a time, in the order the model asked for them: a cart's
    /// add then remove, a link after the cart move it follows, arrive in that order.
    private let queue: AsyncStream<ConsoleEffect>.Continuation

    public init(auth: Auth, cart: CartStore, outbox: AuthEmulatorOutbox? = nil, simulatedIdentityOwner: String? = nil,
                audience: ConsoleAudience = .everyone, accounts: AccountsConnection? = nil,
                accountsRefreshInterval: Duration = .seconds(3), reloadInterval: Duration = .seconds(15), room: RoomClient? = nil, logger: Logger,
                send: @escaping @Sendable (ConsoleEvent) -> Void) {
        self.room = room
        self.quietReload = QuietReload(auth: auth, interval: reloadInterval)
        self.auth = auth
        self.cart = cart
        self.outbox = outbox
        self.simulatedIdentityOwner = simulatedIdentityOwner
        self.control = SessionControl(audience: audience)
        self.accounts = accounts
        self.accountsRefreshInterval = accountsRefreshInterval
        self.logger = logger
        self.send = send
        let (effects, queue) = AsyncStream<ConsoleEffect>.makeStream()
        self.queue = queue
        // Ends with the runner: its continuation goes, the stream finishes.
        Task { [weak self] in
            for await effect in effects {
                guard let self else { return }
                if let event = await perform(effect) { send(event) }
            }
        }
    }

    deinit {
        queue.finish()
        refreshTimer.withLock { $0?.cancel() }
        quietReload.signedIn(false)
    }

    /// Forwards auth-state changes and new backend exchanges as events for as long as the app runs.
    public func observe() {
        let auth = auth
        let send = send
        let control = control
        let quietReload = quietReload
        Task {
            var first = true
            for await user in await auth.authStateChanges() {
                // The stream starts with the current user. A nil there says nothing the model does not know, and
                // when this task registers before the saved session is restored, it would arrive after
                // `sessionRestored` and read as the session ending.
                defer { first = false }
                if first, user == nil { continue }
                control.adopt(user)
                quietReload.signedIn(user != nil)
                var summary: TokenSummary?
                if user != nil, let result = try? await auth.idTokenResult() { summary = TokenSummary(result) }
                send(.authStateChanged(user, summary, endedBy: user == nil ? await auth.sessionEndReason : nil))
            }
        }
        Task { [control] in
            await auth.observeExchanges { entries in send(.exchangesChanged(control.inspectable(entries))) }
        }
    }

    /// Queues `effect` behind those not yet done; its outcome comes back through `send`.
    public func run(_ effect: ConsoleEffect) {
        // Debug: an open accounts view reloads every few seconds, which would fill the log of a console left open.
        logger.debug("effect", metadata: ["effect": "\(Self.name(of: effect))"])
        queue.yield(effect)
    }

    func perform(_ effect: ConsoleEffect) async -> ConsoleEvent? {
        switch effect {
        case .restoreSession:
            do {
                guard let user = try await auth.restoreSession() else { return .sessionRestored(.success(nil)) }
                // Check the saved account against the backend (deleted, disabled or revoked
                // since the last run); the auth-state stream reports whatever changed.
                Task { _ = try? await self.auth.reload() }
                let restored = AuthDataResult(user: user, additionalUserInfo: nil)
                return .sessionRestored(.success(SignedIn(restored, cart: await cartItems(of: user.uid))))
            } catch {
                logger.error("saved session unreadable", metadata: ["error": "\(error)"])
                return .sessionRestored(.failure(SessionRestoreError(reason: String(describing: error))))
            }
        case .signInAnonymously:
            return .signInFinished(await signedIn { try await self.auth.signInAnonymously() })
        case let .createUser(email, password):
            return .signInFinished(await signedIn { try await self.auth.createUser(email: email, password: password) })
        case let .signIn(credential):
            let guest = await auth.currentUser?.isAnonymous == true ? await auth.detachedCurrentUser() : nil
            leftGuest.withLock { $0 = guest }
            return .signInFinished(await signedIn { try await self.auth.signIn(with: credential) })
        case let .link(credential):
            return .linkFinished(await result { try await self.auth.link(with: credential) })
        case let .unlink(providerID):
            return .unlinkFinished(providerID: providerID, await result { try await self.auth.unlink(fromProvider: providerID) })
        case let .reauthenticate(credential, operation):
            return .reauthenticationFinished(operation, await result {
                try await self.account(for: operation).reauthenticate(with: credential)
            })
        case let .perform(operation):
            return .sensitiveOperationFinished(operation, await result {
                switch operation {
                case let .updatePassword(password):
                    try await self.auth.updatePassword(to: password)
                    return await self.auth.currentUser
                case .deleteAccount:
                    try await self.auth.delete()
                    return nil
                case let .unenroll(factor):
                    return try await self.auth.multiFactor.unenroll(with: factor)
                case .deletePreviousAccount:
                    try await self.account(for: operation).delete()
                    self.previousAccount.withLock { $0 = nil }
                    return await self.auth.currentUser
                case let .updateEmail(email, _):
                    try await self.auth.updateEmail(to: email)
                    return await self.auth.currentUser
                case let .verifyBeforeUpdateEmail(email):
                    try await self.auth.verifyBeforeUpdateEmail(to: email)
                    return await self.auth.currentUser
                }
            })
        case .signOut:
            await auth.signOut()
            return nil
        case .reloadUser:
            return .userReloaded(await result { try await self.auth.reload() })
        case let .loadCart(uid):
            return await cartEvent(uid) {}
        case let .addToCart(uid, name):
            return await cartEvent(uid) { try await self.cart.add(name, to: uid) }
        case let .removeFromCart(uid, name):
            return await cartEvent(uid) { try await self.cart.removeOne(name, from: uid) }
        case let .deleteAppData(uid):
            return await cartEvent(uid) { try await self.cart.removeAll(of: uid) }
        case let .verification(effect):
            return .verification(await perform(effect))
        case let .passwordReset(effect):
            return .feature(await perform(effect))
        case let .emailLink(effect):
            return .feature(await perform(effect))
        case let .pendingLink(effect):
            return .feature(await perform(effect))
        case let .secondFactorEnrollment(effect):
            return .feature(await perform(effect))
        case let .secondFactorSignIn(effect):
            return .feature(await perform(effect))
        case let .consent(effect):
            return .feature(await perform(effect))
        case let .conflict(effect):
            return .feature(await perform(effect))
        case let .deleteLeftGuest(uid):
            return .leftGuestDeleted(uid: uid, await deleteLeftGuest(uid))
        case let .mergeCart(source, target):
            return await cartEvent(target) { try await self.cart.merge(from: source, into: target) }
        case let .accounts(effect):
            return await perform(effect).map { .feature($0) }
        case let .room(effect):
            return perform(effect)
        case let .phone(effect):
            return .feature(await perform(effect))
        case .quit:
            return nil
        }
    }

    /// Signs in first (if that fails, or stops at a second factor, nothing has changed), then moves
    /// the cart, then deletes the previous account through its own session: the console's session
    /// goes straight from one account to the other.
    func merge(_ plan: MergePlan, signIn: @escaping @Sendable () async throws -> AuthDataResult) async -> Result<MergeOutcome, AuthError> {
        await result {
            let previous = await self.auth.detachedCurrentUser()
            let signedIn = try await signIn()
            try await self.cart.merge(from: plan.previousUid, into: signedIn.user.uid)
            let merged = SignedIn(signedIn, cart: .success(try await self.cart.items(of: signedIn.user.uid)))
            var deletionFailure: AuthError?
            if plan.deletePrevious, let previous {
                do {
                    try await previous.delete()
                } catch let error as AuthError {
                    deletionFailure = error
                    // Kept for the reauthentication that lets it be deleted after all.
                    if error.code == .requiresRecentLogin { self.previousAccount.withLock { $0 = previous } }
                }
            }
            return MergeOutcome(result: merged, deletionFailure: deletionFailure)
        }
    }

    /// The session a sensitive operation acts on: the console's, or the merge's previous account's.
    private func account(for operation: SensitiveOperation) throws -> Auth {
        guard case let .deletePreviousAccount(previous) = operation else { return auth }
        guard let held = previousAccount.withLock({ $0 }) else {
            throw AuthError(.userNotFound, serverMessage: "no session of \(previous.uid) is held any more")
        }
        return held
    }

    /// Deletes the guest account a sign-in left, through its own session; nil when it is gone.
    private func deleteLeftGuest(_ uid: String) async -> AuthError? {
        guard let guest = leftGuest.withLock({ guest in defer { guest = nil }; return guest }),
              await guest.currentUser?.uid == uid else {
            return AuthError(.userNotFound, serverMessage: "no session of \(uid) is held any more")
        }
        do {
            try await guest.delete()
            try await cart.removeAll(of: uid)
            return nil
        } catch let error as AuthError {
            return error
        } catch {
            return AuthError(.internalError, serverMessage: String(describing: error))
        }
    }

    func result<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, AuthError> {
        do {
            return .success(try await body())
        } catch let error as AuthError {
            logger.notice("auth error", metadata: ["code": "\(error.code)", "server": "\(error.serverMessage ?? "-")"])
            return .failure(error)
        } catch {
            return .failure(AuthError(.internalError, serverMessage: String(describing: error)))
        }
    }

    /// A sign-in, and the cart of the account it signed in to, read in the same trip: the landing
    /// adopts both at once. A sign-in that fails, or stops at a second factor, reads nothing.
    func signedIn(_ signIn: @Sendable () async throws -> AuthDataResult) async -> Result<SignedIn, AuthError> {
        switch await result(signIn) {
        case let .success(data): .success(SignedIn(data, cart: await cartItems(of: data.user.uid)))
        case let .failure(error): .failure(error)
        }
    }

    private func cartEvent(_ uid: String, _ change: () async throws -> Void) async -> ConsoleEvent {
        do {
            try await change()
        } catch {
            return .cartChanged(uid: uid, .failure(appDataError(error)))
        }
        return .cartChanged(uid: uid, await cartItems(of: uid))
    }

    private func cartItems(of uid: String) async -> Result<[CartItem], AppDataError> {
        do {
            return .success(try await cart.items(of: uid))
        } catch {
            return .failure(appDataError(error))
        }
    }

    private func appDataError(_ error: any Error) -> AppDataError {
        logger.error("app data", metadata: ["error": "\(error)"])
        return AppDataError(reason: String(describing: error))
    }

    /// The effect's name without its payload: payloads may hold passwords.
    static func name(of effect: ConsoleEffect) -> String {
        String(String(describing: effect).prefix { $0 != "(" })
    }
}

/// Another console may change the account (link, verify the email, delete it): a quiet reload every
/// `interval` shows it, through the auth-state events. Only while someone is signed in: at the sign-in
/// screen there is nothing to reload, and a room of idle visitors' consoles would each wake for nothing.
final class QuietReload: Sendable {
    private let auth: Auth
    private let interval: Duration
    private let loop = Mutex<Task<Void, Never>?>(nil)

    init(auth: Auth, interval: Duration) {
        self.auth = auth
        self.interval = interval
    }

    /// Whether the reloads are due: started at a sign-in, stopped at the sign-out.
    var isRunning: Bool { loop.withLock { $0 != nil } }

    func signedIn(_ signedIn: Bool) {
        loop.withLock { loop in
            if signedIn {
                guard loop == nil else { return }
                loop = Task { [auth, interval] in
                    while true {
                        do { try await Task.sleep(for: interval) } catch { return }
                        _ = try? await auth.reloadInBackground()
                    }
                }
            } else {
                loop?.cancel()
                loop = nil
            }
        }
    }
}
