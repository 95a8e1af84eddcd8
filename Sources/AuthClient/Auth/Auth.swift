import Foundation
import IdentityToolkit

/// Firebase Auth's client: the signed-in user, its tokens, and every account operation.
/// An actor, so account changes are serialised (a refresh never races a sign-out).
public actor Auth {
    /// Tokens are refreshed this long before they expire, as the Firebase SDKs do.
    static let refreshMargin: TimeInterval = 5 * 60

    nonisolated let backend: any IdentityBackend
    /// The Identity Platform tenant this client signs in to (the SDKs' `Auth.auth().tenantID`): every
    /// request names it, and its users are the tenant's. Nil: the project's own users.
    public nonisolated let tenantID: String?
    let store: (any SessionStore)?
    /// The time the client goes by: when tokens expire, and the console's judgement of what else has.
    public nonisolated let clock: @Sendable () -> Date
    var session: PersistedSession?
    /// Why the backend ended the last session (the account deleted or disabled, its tokens revoked);
    /// nil after a sign-out of the user's own or while signed in.
    public internal(set) var sessionEndReason: AuthErrorCode?
    var listeners: [UUID: AsyncStream<User?>.Continuation] = [:]

    public init(backend: any IdentityBackend, tenantID: String? = nil, sessionStore: (any SessionStore)? = nil,
                clock: @escaping @Sendable () -> Date = Date.init) {
        self.backend = backend
        self.tenantID = tenantID
        self.store = sessionStore
        self.clock = clock
    }

    public var currentUser: User? { session?.user }

    /// Picks up the session persisted by an earlier run. A session file that cannot be read is
    /// reported and left where it is, so nothing is lost; the user starts signed out. So does a
    /// session of another tenant (or of the project, in a tenant): its tokens mean nothing here.
    @discardableResult
    public func restoreSession() throws -> User? {
        let saved = try store?.load()
        session = saved?.user.tenantID == tenantID ? saved : nil
        notify()
        return session?.user
    }

    // MARK: Signing in

    /// Signs in a new anonymous user; an anonymous user already signed in is returned as is,
    /// as Firebase does, so a double press does not orphan an account.
    public func signInAnonymously() async throws -> AuthDataResult {
        if let user = session?.user, user.isAnonymous {
            return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: false))
        }
        let response = try await perform(SignUpRequest())
        let user = try await establishSession(idToken: response.idToken, refreshToken: response.refreshToken,
                                              expiresIn: response.expiresIn, anonymous: true)
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
    }

    public func createUser(email: String, password: String) async throws -> AuthDataResult {
        let response = try await perform(SignUpRequest(email: email, password: password))
        let user = try await establishSession(idToken: response.idToken, refreshToken: response.refreshToken,
                                              expiresIn: response.expiresIn, anonymous: false)
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: EmailAuthProvider.id, isNewUser: true))
    }

    public func signIn(email: String, password: String) async throws -> AuthDataResult {
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, password: password))
    }

    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        let tokens = try await exchange(credential)
        let user = try await establishSession(idToken: tokens.idToken, refreshToken: tokens.refreshToken,
                                              expiresIn: tokens.expiresIn, anonymous: false)
        return AuthDataResult(user: user, additionalUserInfo: tokens.additionalUserInfo
            ?? AdditionalUserInfo(providerID: credential.provider, isNewUser: tokens.isNewUser ?? false), credential: tokens.providerCredential)
    }

    /// Signs in with the credential again, for operations that need a recent sign-in.
    /// A credential of another account fails with `userMismatch` and changes nothing.
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        let current = try requireUser()
        let tokens: SignInTokens
        do {
            tokens = try await exchange(credential, autoCreate: false, reauthenticating: current.uid)
        } catch let error as AuthError where error.code == .userNotFound {
            throw AuthError(.userMismatch, serverMessage: error.serverMessage)
        }
        guard tokens.localId == current.uid else { throw AuthError(.userMismatch) }
        let user = try await establishSession(idToken: tokens.idToken, refreshToken: tokens.refreshToken,
                                              expiresIn: tokens.expiresIn, anonymous: current.isAnonymous)
        return AuthDataResult(user: user, additionalUserInfo: tokens.additionalUserInfo
            ?? AdditionalUserInfo(providerID: credential.provider, isNewUser: false), credential: tokens.providerCredential)
    }

    // MARK: Providers

    /// Links a credential to the signed-in user; an anonymous user is upgraded and keeps its uid.
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        let current = try requireUser()
        guard !current.providerData.contains(where: { $0.providerID == credential.provider }) else {
            throw AuthError(.providerAlreadyLinked)
        }
        let idToken = try await validIDToken()
        switch credential {
        case let .password(email, password):
            let response = try await performForCurrentUser(SignUpRequest(email: email, password: password, idToken: idToken))
            let user = try await establishSession(idToken: response.idToken, refreshToken: response.refreshToken,
                                                  expiresIn: response.expiresIn, anonymous: false)
            return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: credential.provider, isNewUser: false))
        case let .phone(phone):
            return try await linkPhone(phone, idToken: idToken)
        case let .emailLink(email, link):
            let response = try await performForCurrentUser(SignInWithEmailLinkRequest(email: email, oobCode: try Self.requireEmailLinkCode(link),
                                                                                      idToken: idToken))
            let tokens = try firstFactorTokens(response, providerID: credential.provider, reauthenticating: nil)
            let user = try await establishSession(idToken: tokens.idToken, refreshToken: tokens.refreshToken,
                                                  expiresIn: tokens.expiresIn, anonymous: false)
            return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: credential.provider, isNewUser: false))
        case let .oauth(oauth):
            let response = try await performForCurrentUser(SignInWithIdpRequest(credential: oauth, idToken: idToken))
            if let refusal = response.refusal { throw refusal }
            let user = try await establishSession(idToken: response.idToken, refreshToken: response.refreshToken,
                                                  expiresIn: response.expiresIn, anonymous: false)
            return AuthDataResult(user: user, additionalUserInfo: response.additionalUserInfo, credential: response.providerCredential)
        }
    }

    @discardableResult
    public func unlink(fromProvider providerID: String) async throws -> User {
        let current = try requireUser()
        guard current.providerData.contains(where: { $0.providerID == providerID }) else {
            throw AuthError(.noSuchProvider)
        }
        let idToken = try await validIDToken()
        _ = try await performForCurrentUser(AccountsUpdateRequest(idToken: idToken, deleteProvider: [providerID], returnSecureToken: nil))
        return try await reload()
    }

    // MARK: The signed-in user

    /// `reload()` as background work: the log folds a run of these that changed nothing into one entry.
    @discardableResult
    public func reloadInBackground() async throws -> User {
        try await ExchangeLog.$background.withValue(true) { try await reload() }
    }

    /// Fetches the user's profile again from the backend.
    @discardableResult
    public func reload() async throws -> User {
        let current = try requireUser()
        let before = session
        let idToken = try await validIDToken()
        let response = try await performForCurrentUser(AccountsLookupRequest(idToken: idToken))
        guard let account = response.users?.first else {
            signOutLocally(endedBy: .userNotFound)
            throw AuthError(.userNotFound)
        }
        let user = User(account: account, wasAnonymous: current.isAnonymous)
        session?.user = user
        // A reload that finds nothing new (most of the console's periodic ones) writes no file and
        // reports no state; a refreshed token or a changed account does both.
        if session != before {
            persist()
            notify()
        }
        return user
    }

    /// The current ID token, refreshed first when it expires within five minutes or when forced.
    public func idToken(forceRefresh: Bool = false) async throws -> String {
        _ = try requireUser()
        if forceRefresh { try await refreshTokens() }
        return try await validIDToken()
    }

    public func idTokenResult(forceRefresh: Bool = false) async throws -> IDTokenResult {
        let token = try await idToken(forceRefresh: forceRefresh)
        guard let result = IDTokenResult(token: token) else { throw AuthError(.invalidUserToken) }
        return result
    }

    /// Needs a recent sign-in. The backend answers with new tokens: the old ones are revoked.
    public func updatePassword(to password: String) async throws {
        try await updateCredentials { AccountsUpdateRequest(idToken: $0, password: password) }
    }

    /// Sends a credential change for the signed-in user, adopts the new tokens it answers with
    /// (the old ones are revoked), and reloads the user.
    func updateCredentials(_ request: (_ idToken: String) -> AccountsUpdateRequest) async throws {
        _ = try requireUser()
        let idToken = try await validIDToken()
        let response = try await performForCurrentUser(request(idToken))
        if let newToken = response.idToken, let refresh = response.refreshToken {
            adoptTokens(idToken: newToken, refreshToken: refresh, expiresIn: response.expiresIn)
        }
        try await reload()
    }

    /// Needs a recent sign-in. Signs out afterwards.
    public func delete() async throws {
        _ = try requireUser()
        let idToken = try await validIDToken()
        _ = try await performForCurrentUser(AccountsDeleteRequest(idToken: idToken))
        signOutLocally()
    }

    public func signOut() {
        signOutLocally()
    }

    /// Firebase's `updateCurrentUser(_:)`: the user signed in on `other` (an `Auth` on the same
    /// backend) becomes the current user here, session and all — for a credential that signs in only
    /// once (a `pendingToken`), where signing in again is not possible.
    @discardableResult
    public func updateCurrentUser(from other: Auth) async throws -> User {
        guard let adopted = await other.session else { throw AuthError(.userNotFound, serverMessage: "no signed-in user") }
        session = adopted
        persist()
        notify()
        return adopted.user
    }

    /// The signed-in user on an `Auth` of its own that persists nothing, as Firebase's `prevUser`
    /// stays usable after signing in to another account (the link-conflict merge deletes it then).
    public func detachedCurrentUser() -> Auth? {
        guard let session else { return nil }
        return Auth(backend: backend, tenantID: tenantID, clock: clock, session: session)
    }

    private init(backend: any IdentityBackend, tenantID: String?, clock: @escaping @Sendable () -> Date, session: PersistedSession) {
        self.backend = backend
        self.tenantID = tenantID
        self.store = nil
        self.clock = clock
        self.session = session
    }
}
