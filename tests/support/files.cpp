#include "support/files.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gsparql::test {

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace gsparql::test
