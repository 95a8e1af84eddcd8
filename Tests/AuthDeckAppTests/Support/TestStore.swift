@testable import AuthDeckApp
import AuthClient
import Testing
import TerminalUI

/// The TestStore pattern, for the root model and for one feature alike: every step (an event, an
/// intent, a key, typed text) asserts the whole next state and everything it asked to run.
struct TestStore<State: Equatable, Input, Output: Equatable> {
    var state: State
    private let step: (inout State, Input) -> [Output]
    private let key: (Key) -> Input
    /// Takes into the expected state what this store leaves to other tests (see `FlowStore.assertsTeaching`).
    var unasserted: (inout State, State) -> Void = { _, _ in }

    init(_ state: State, key: @escaping (Key) -> Input, step: @escaping (inout State, Input) -> [Output]) {
        self.state = state
        self.key = key
        self.step = step
    }

    /// One input; `update` turns the state before into the state expected after.
    mutating func send(_ input: Input, expecting expected: [Output], sourceLocation: SourceLocation = #_sourceLocation,
                       _ update: (inout State) -> Void = { _ in }) {
        var next = state
        update(&next)
        let outputs = step(&state, input)
        unasserted(&next, state)
        #expect(outputs == expected, sourceLocation: sourceLocation)
        #expect(state == next, sourceLocation: sourceLocation)
    }

    /// Text typed one key per character; asserts the state once typed and that no key asked for
    /// anything unless `expected` says so.
    mutating func type(_ text: String, expecting expected: [Output] = [], sourceLocation: SourceLocation = #_sourceLocation,
                       _ update: (inout State) -> Void) {
        var next = state
        update(&next)
        var outputs: [Output] = []
        for character in text { outputs += step(&state, key(.character(character))) }
        unasserted(&next, state)
        #expect(outputs == expected, sourceLocation: sourceLocation)
        #expect(state == next, sourceLocation: sourceLocation)
    }
}

/// The root model: events in, effects out.
typealias FlowStore = TestStore<ConsoleModel, ConsoleEvent, ConsoleEffect>

extension TestStore where State == ConsoleModel, Input == ConsoleEvent, Output == ConsoleEffect {
    /// `assertsTeaching`: whether each step asserts the teaching pane's step too. It follows every
    /// step a flow takes; the teaching tests assert it at each one, a flow's own tests leave it to them.
    init(_ model: ConsoleModel, assertsTeaching: Bool = false) {
        self.init(model, key: { .key($0) }, step: { $0.handle($1) })
        if !assertsTeaching {
            unasserted = { expected, actual in
                expected.teaching = actual.teaching
                expected.teachingSession = actual.teachingSession
            }
        }
    }

    var model: ConsoleModel {
        get { state }
        set { state = newValue }
    }

    mutating func send(_ event: ConsoleEvent, effects expected: [ConsoleEffect] = [], sourceLocation: SourceLocation = #_sourceLocation,
                       _ update: (inout ConsoleModel) -> Void = { _ in }) {
        send(event, expecting: expected, sourceLocation: sourceLocation, update)
    }
}

/// What a feature is given: an action (a key's meaning), a key no binding took, or a result of its effects.
enum FeatureInput<Action, Event> {
    case intent(Action)
    case edit(Key)
    case event(Event)
}

/// One feature, as its screen would drive it: inputs in, `FlowStep`s out.
typealias FlowTester<Flow: ConsoleFeature> = TestStore<Flow, FeatureInput<Flow.Action, Flow.Event>, FlowStep>

extension TestStore where State: ConsoleFeature, Input == FeatureInput<State.Action, State.Event>, Output == FlowStep {
    init(_ flow: State, context: ConsoleContext = Fixtures.signedOut) {
        self.init(flow, key: { .edit($0) }, step: { flow, input in
            switch input {
            case let .intent(action):
                return flow.perform(action, in: context)
            case let .edit(key):
                flow.edit(key)
                return []
            case let .event(event):
                return flow.handle(event, in: context)
            }
        })
    }

    var flow: State {
        get { state }
        set { state = newValue }
    }

    mutating func perform(_ action: State.Action, steps expected: [FlowStep] = [], sourceLocation: SourceLocation = #_sourceLocation,
                          _ update: (inout State) -> Void = { _ in }) {
        send(.intent(action), expecting: expected, sourceLocation: sourceLocation, update)
    }

    mutating func handle(_ event: State.Event, steps expected: [FlowStep] = [], sourceLocation: SourceLocation = #_sourceLocation,
                         _ update: (inout State) -> Void = { _ in }) {
        send(.event(event), expecting: expected, sourceLocation: sourceLocation, update)
    }

    /// A key the feature's bindings did not take (a paste, a backspace): it edits a field.
    mutating func edit(_ key: Key, sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout State) -> Void) {
        send(.edit(key), expecting: [], sourceLocation: sourceLocation, update)
    }
}
