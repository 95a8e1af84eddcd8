/// What the teaching pane keeps across steps: every step this console took (the transcript),
/// whether the pane shows it, how far it is scrolled sideways, and text asked for the visitor's
/// clipboard, which the terminal sends once the frame is drawn.
struct TeachingSession: Equatable, Sendable {
    private(set) var transcript: [TeachingStep] = []
    var showsTranscript = false
    /// The first cell of the code rows shown, where a row is wider than the pane.
    var column = 0
    /// Text for the visitor's clipboard (OSC 52), taken by the terminal after the next frame.
    var clipboard: String?
    /// What the last key copied, shown at the pane's top until the next key (the pane covers the banner).
    var copied: String?

    /// Adds a context's steps to the transcript, less those it repeats from the transcript's end
    /// (a second factor's context starts with the first factor already recorded).
    mutating func record(_ context: TeachingContext) {
        let repeated = (0...min(context.steps.count, transcript.count)).last {
            Array(transcript.suffix($0)) == Array(context.steps.prefix($0))
        } ?? 0
        transcript += context.steps.dropFirst(repeated)
    }

    /// A step on one platform, or all four, as the visitor copies it: each language under a comment
    /// naming it, the code as filled in (unwrapped), so that it compiles as pasted.
    static func copyText(of step: TeachingStep, on platforms: [SDKPlatform]) -> String {
        platforms.map { platform in
            "// \(step.title) (\(platform.title))\n" + step.snippet(on: platform).text + "\n"
        }.joined(separator: "\n")
    }

    /// The transcript on one platform, each step under a numbered comment with its title.
    static func copyText(ofTranscript steps: [TeachingStep], on platform: SDKPlatform) -> String {
        steps.enumerated().map { index, step in
            "// \(index + 1). \(step.title) (\(platform.title))\n" + step.snippet(on: platform).text + "\n"
        }.joined(separator: "\n")
    }
}
