#pragma once
// Line editing and history for the REPL, through libedit (BSD editline).
// Without a terminal on standard input it reads plain lines and keeps no
// history.
#include <filesystem>
#include <string>

typedef struct editline EditLine;
typedef struct history History;

namespace gsparql::cli {

class LineEditor {
 public:
  // `historyFile`: loaded now, rewritten after each addHistory(); empty for none.
  LineEditor(const char* program, std::filesystem::path historyFile);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  enum class Status { Line, Interrupted, EndOfInput };
  struct Input {
    Status status;
    std::string line;  // without the newline
  };
  // Shows `prompt` (on a terminal) and reads one line. Ctrl-C while typing
  // returns Interrupted (the line is dropped), Ctrl-D on an empty line
  // EndOfInput.
  Input readLine(const std::string& prompt);
  void addHistory(const std::string& entry);
  bool interactive() const { return interactive_; }

 private:
  static char* promptOf(EditLine* el);

  EditLine* el_ = nullptr;
  History* history_ = nullptr;
  std::filesystem::path historyFile_;
  std::string prompt_;
  bool interactive_ = false;
};

}  // namespace gsparql::cli
