// Text from someone else's file, made safe to show: in an error message, on a terminal.
//
// A token, a key or a field value read from a file can hold anything: ESC sequences that set a
// terminal's title or clear its screen, NUL bytes that cut a C string, bidirectional overrides
// that reorder what a reader sees, bytes that are not UTF-8, or fifty megabytes. Everything the
// library quotes into a message and everything the command line prints of a file goes through
// these two functions; --json output stays exact (JSON escapes what it must).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tp {

// The text with every character that could act on a terminal or hide itself written as an
// escape: C0 controls and DEL as \n \t \r or \xNN (\x1b for ESC), C1 controls (U+0080..U+009F),
// the bidirectional controls (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), the line and
// paragraph separators (U+2028, U+2029) and U+FEFF as \u{NNNN}, each byte that is not part of
// valid UTF-8 as \xNN, and a backslash as \\ (so an escape in the output always means one;
// escape_backslash false leaves backslashes, for a message whose quotes are escaped already).
// Everything else, spaces and other scripts included, stays as it is.
std::string escape_controls(std::string_view text, bool escape_backslash = true);

// For an error message: the text escaped as above, cut after max_chars characters with
// "... (N bytes in all)", between single quotes.
std::string quote(std::string_view text, std::size_t max_chars = 60);

}  // namespace tp
