@testable import AuthDeckApp
import Testing

/// In a tenant, the pane shows first how each SDK selects it, then the step taken; the C++ SDK,
/// which has no tenant setting, says so.
@Suite("The teaching pane in a tenant")
struct TenantTeachingTests {
    @Test func whatWasDoneStartsWhereTheAppSelectsTheTenant() {
        var model = ConsoleModel(backendName: "embedded")
        model.tenant = "team-a-8x2k4"
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        #expect(model.handle(.key(.enter)) == [.signInAnonymously])
        #expect(model.teaching?.steps == [.selectTenant(tenantID: "team-a-8x2k4"), .anonymousSignIn])
        #expect(model.teaching?.step == .anonymousSignIn)

        let select = TeachingStep.selectTenant(tenantID: "team-a-8x2k4")
        #expect(select.snippet(on: .swift).text.contains(#"Auth.auth().tenantID = "team-a-8x2k4""#))
        #expect(select.snippet(on: .kotlin).text.contains(#"Firebase.auth.tenantId = "team-a-8x2k4""#))
        #expect(select.snippet(on: .javascript).text.contains(#"auth.tenantId = "team-a-8x2k4";"#))
        let cpp = select.snippet(on: .cpp)
        #expect(!cpp.isAvailable && cpp.text.contains("no tenant setting"))

        // The transcript selects the tenant once, as an app does.
        model.followTeaching(after: .key(.enter), asked: [.signInAnonymously])
        #expect(model.teaching?.steps.first == select)
        #expect(model.teachingSession.transcript.filter { $0.kind == .selectTenant }.count == 1)
    }

    @Test func outsideATenantThereIsNoSuchStep() {
        var model = ConsoleModel(backendName: "embedded")
        model.screen = .signInMethods(SignInMethodsFeature(selection: 0))
        _ = model.handle(.key(.enter))
        #expect(model.teaching?.steps == [.anonymousSignIn])
    }
}
