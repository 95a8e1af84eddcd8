/// Every step's snippets, from the flows' files. Pure data: nothing here reads or writes anything.
enum TeachingCatalogue {
    /// Each flow's file, in the order the console offers the flows.
    static let flows: [(name: String, snippets: [TeachingStep.Kind: SnippetSet])] = [
        ("Anonymous", AnonymousSnippets.snippets),
        ("Email and password", EmailPasswordSnippets.snippets),
        ("Email link", EmailLinkSnippets.snippets),
        ("Apple", AppleSnippets.snippets),
        ("Microsoft", MicrosoftSnippets.snippets),
        ("Google and Facebook", GoogleFacebookSnippets.snippets),
        ("Federated sign-in", FederatedSnippets.snippets),
        ("Phone", PhoneSnippets.snippets),
        ("Linking", LinkingSnippets.snippets),
        ("Second factors", SecondFactorSnippets.snippets),
        ("Account", AccountSnippets.snippets),
        ("Tenants", TenantSnippets.snippets),
    ]

    static let snippets: [TeachingStep.Kind: SnippetSet] = flows.reduce(into: [:]) { all, flow in
        all.merge(flow.snippets) { first, _ in first }
    }

    static func snippetSet(for kind: TeachingStep.Kind) -> SnippetSet? {
        snippets[kind]
    }
}

/// A step's code on one platform with this run's values filled in: what the pane draws.
struct FilledSnippet: Sendable, Hashable {
    var platform: SDKPlatform
    var text: String
    var isAvailable: Bool
}

extension TeachingStep {
    /// The step's title, e.g. "Apple: the credential with the ID token and raw nonce".
    var title: String {
        TeachingCatalogue.snippetSet(for: kind)?.title ?? ""
    }

    /// The step's code on `platform`, its placeholders filled with this run's values.
    func snippet(on platform: SDKPlatform) -> FilledSnippet {
        guard let snippet = TeachingCatalogue.snippetSet(for: kind)?[platform] else {
            return FilledSnippet(platform: platform, text: "", isAvailable: false)
        }
        return FilledSnippet(platform: platform, text: snippet.filled(with: values, for: platform), isAvailable: snippet.isAvailable)
    }
}
