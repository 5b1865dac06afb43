#pragma once

class QKeyEvent;

namespace cardhour::terminal {

class TerminalScreen;

// Encodes a key press for the remote through libvterm (which knows the cursor-key and keypad
// modes the remote asked for): special keys with vterm_keyboard_key, characters with
// vterm_keyboard_unichar, Ctrl and Alt combinations as a real terminal sends them. Returns false
// when the key means nothing to a terminal (a lone modifier, say).
bool sendKeyToTerminal(TerminalScreen &screen, const QKeyEvent &event);

} // namespace cardhour::terminal
