#include "TerminalKeyboard.h"

#include "TerminalScreen.h"

#include <QKeyEvent>

namespace cardhour::terminal {

namespace {

VTermModifier vtermModifiers(Qt::KeyboardModifiers modifiers)
{
    int result = VTERM_MOD_NONE;
    if (modifiers & Qt::ShiftModifier)
        result |= VTERM_MOD_SHIFT;
    if (modifiers & Qt::AltModifier)
        result |= VTERM_MOD_ALT;
        // On macOS Qt reports the Control key as Meta.
#ifdef Q_OS_MACOS
    if (modifiers & Qt::MetaModifier)
        result |= VTERM_MOD_CTRL;
#else
    if (modifiers & Qt::ControlModifier)
        result |= VTERM_MOD_CTRL;
#endif
    return VTermModifier(result);
}

VTermKey specialKey(int key)
{
    switch (key) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return VTERM_KEY_ENTER;
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
        return VTERM_KEY_TAB;
    case Qt::Key_Backspace:
        return VTERM_KEY_BACKSPACE;
    case Qt::Key_Escape:
        return VTERM_KEY_ESCAPE;
    case Qt::Key_Up:
        return VTERM_KEY_UP;
    case Qt::Key_Down:
        return VTERM_KEY_DOWN;
    case Qt::Key_Left:
        return VTERM_KEY_LEFT;
    case Qt::Key_Right:
        return VTERM_KEY_RIGHT;
    case Qt::Key_Insert:
        return VTERM_KEY_INS;
    case Qt::Key_Delete:
        return VTERM_KEY_DEL;
    case Qt::Key_Home:
        return VTERM_KEY_HOME;
    case Qt::Key_End:
        return VTERM_KEY_END;
    case Qt::Key_PageUp:
        return VTERM_KEY_PAGEUP;
    case Qt::Key_PageDown:
        return VTERM_KEY_PAGEDOWN;
    default:
        break;
    }
    if (key >= Qt::Key_F1 && key <= Qt::Key_F35)
        return VTermKey(VTERM_KEY_FUNCTION(key - Qt::Key_F1 + 1));
    return VTERM_KEY_NONE;
}

// The byte Ctrl plus this key sends on a VT keyboard (Ctrl+Space and Ctrl+2 are NUL, Ctrl+/
// is 0x1f, ...), or 0 when there is none. Letters are left to libvterm.
char32_t controlCharacter(int key)
{
    switch (key) {
    case Qt::Key_Space:
    case Qt::Key_2:
    case Qt::Key_At:
        return 0x00;
    case Qt::Key_BracketLeft:
    case Qt::Key_3:
        return 0x1b;
    case Qt::Key_Backslash:
    case Qt::Key_4:
        return 0x1c;
    case Qt::Key_BracketRight:
    case Qt::Key_5:
        return 0x1d;
    case Qt::Key_AsciiCircum:
    case Qt::Key_6:
        return 0x1e;
    case Qt::Key_Slash:
    case Qt::Key_Underscore:
    case Qt::Key_7:
        return 0x1f;
    case Qt::Key_8:
    case Qt::Key_Question:
        return 0x7f;
    default:
        return char32_t(-1);
    }
}

} // namespace

bool sendKeyToTerminal(TerminalScreen &screen, const QKeyEvent &event)
{
    const int key = event.key();
    const VTermModifier modifiers = vtermModifiers(event.modifiers());

    if (key == Qt::Key_Backtab) {
        screen.sendKey(VTERM_KEY_TAB, VTermModifier(modifiers | VTERM_MOD_SHIFT));
        return true;
    }
    if (const VTermKey special = specialKey(key); special != VTERM_KEY_NONE) {
        screen.sendKey(special, modifiers);
        return true;
    }

    const bool control = modifiers & VTERM_MOD_CTRL;
    const auto altOnly = VTermModifier(modifiers & VTERM_MOD_ALT);
    if (control) {
        if (key >= Qt::Key_A && key <= Qt::Key_Z) {
            screen.sendCharacter(char32_t(key - Qt::Key_A + 'a'),
                                 VTermModifier(VTERM_MOD_CTRL | altOnly));
            return true;
        }
        if (const char32_t byte = controlCharacter(key); byte != char32_t(-1)) {
            screen.sendCharacter(byte, altOnly);
            return true;
        }
    }

    const QString text = event.text();
    if (text.isEmpty())
        return false;
    // With Alt the layout still gives the character (Alt+x → "x"): it goes out after ESC. The
    // text of a Ctrl combination is a control character already, sent as it is.
    const VTermModifier characterModifiers = control ? VTERM_MOD_NONE : altOnly;
    const QList<uint> characters = text.toUcs4();
    for (uint character : characters) {
        if (character < 0x20 && !control)
            continue; // stray control characters from odd layouts
        screen.sendCharacter(char32_t(character), characterModifiers);
    }
    return true;
}

} // namespace cardhour::terminal
