#pragma once
// Long output on a terminal goes through a pager ($PAGER, else `less -FRX`,
// which exits at once when the text fits on one screen).
#include <string>

namespace gsparql::cli {

bool stdoutIsTerminal();
// Writes `text` to standard output, through the pager when it is taller than
// the terminal.
void showPaged(const std::string& text);

}  // namespace gsparql::cli
