import TerminalUI

/// Taking the code home: `y` puts the step on screen on the visitor's clipboard, `Y` the whole
/// transcript, `t` shows the transcript, `<`/`>` scroll rows wider than the pane.
extension ConsoleModel {
    var teachingCopyBindings: [KeyBinding<ConsoleAction>] {
        var keys: [KeyBinding<ConsoleAction>] = [
            KeyBinding([.character("y")], "y", "copy", .teaching(.copy)),
            KeyBinding([.character("Y")], "Y", "copy transcript", .teaching(.copyTranscript), inBar: false),
            KeyBinding([.character("t")], "t", teachingSession.showsTranscript ? "this step" : "transcript", .teaching(.toggleTranscript)),
        ]
        let frame = ConsoleView.teachingFrame(terminalSize ?? Size(width: 80, height: 24))
        if (teachingPane(scroll: 0)?.maxColumn(in: frame) ?? 0) > 0 {
            keys += [KeyBinding([.character(">"), .character(".")], ">", "sideways", .teaching(.scrollRight), inBar: false),
                     KeyBinding([.character("<"), .character(",")], "<", "back", .teaching(.scrollLeft), inBar: false)]
        }
        return keys
    }

    /// The transcript's language: the one shown at full width, else Swift.
    var transcriptPlatform: SDKPlatform {
        if case let .one(platform) = teachingDisplay { platform } else { .swift }
    }

    func transcriptPane(scroll: Int) -> TeachingPane {
        let steps = teachingSession.transcript
        let note = steps.isEmpty
            ? "No step taken yet in this console: the transcript lists each one, in order."
            : "Every step of this console, in order, in \(transcriptPlatform.name) (l: another language; Y copies it all)."
        return TeachingPane(content: .transcript(steps, transcriptPlatform), display: .one(transcriptPlatform), scroll: scroll,
                            column: teachingSession.column, notes: (teachingSession.copied.map { [$0] } ?? []) + [note])
    }

    mutating func performTeachingCopy(_ action: TeachingAction, in frame: Rect) {
        switch action {
        case .scrollRight, .scrollLeft:
            let last = teachingPane(scroll: 0)?.maxColumn(in: frame) ?? 0
            let step = max(1, TeachingPane.visibleColumns(in: frame) / 2)
            teachingSession.column = action == .scrollRight ? min(teachingSession.column + step, last) : max(teachingSession.column - step, 0)
        case .toggleTranscript:
            teachingSession.showsTranscript.toggle()
            teachingSession.column = 0
            overlay = .teaching(scroll: 0)
        case .copy where teachingSession.showsTranscript, .copyTranscript:
            let steps = teachingSession.transcript
            guard !steps.isEmpty else {
                banner = Banner(.info, "Nothing to copy yet: the transcript is empty until a step is taken.")
                teachingSession.copied = banner?.text
                return
            }
            copy(TeachingSession.copyText(ofTranscript: steps, on: transcriptPlatform),
                 what: "the transcript (\(steps.count) step\(steps.count == 1 ? "" : "s")) in \(transcriptPlatform.name)")
        case .copy:
            guard let pane = teachingPane(scroll: 0), case let .step(step) = pane.content else { return }
            let platforms = teachingDisplay.platforms
            copy(TeachingSession.copyText(of: step, on: platforms),
                 what: "\"\(step.title)\" in \(platforms.count == 1 ? platforms[0].name : "all four languages")")
        case .lineUp, .lineDown, .pageUp, .pageDown, .nextLanguage, .previousStep, .nextStep, .close:
            return
        }
    }

    private mutating func copy(_ text: String, what: String) {
        teachingSession.clipboard = text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let message = "Copied \(what), \(lines) lines, to your clipboard (OSC 52). Some terminals ignore it; "
            + "tmux passes it on with set-clipboard on."
        banner = Banner(.info, message)
        teachingSession.copied = message
    }
}
