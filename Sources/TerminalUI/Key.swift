/// A key press, decoded from curses' `wget_wch`. Printable text arrives as `.character`;
/// a bracketed paste arrives as one `.paste` so pasted junk can be filtered as a whole.
public enum Key: Sendable, Hashable {
    case character(Character)
    case paste(String)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case control(Character)
    case function(Int)
}

/// What the run loop hands to the application.
public enum TerminalEvent: Sendable, Hashable {
    case key(Key)
    case resize(Size)
    /// Something outside the terminal happened (an async result arrived); redraw.
    case wake
}
