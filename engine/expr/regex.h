#pragma once
// XPath regular expressions (fn:matches, fn:replace) for REGEX and REPLACE,
// through PCRE2 in UTF mode.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gsparql::engine::expr {

class Regex {
 public:
  // nullptr for an invalid pattern or flags (an evaluation error).
  static std::shared_ptr<const Regex> compile(std::string_view pattern, std::string_view flags);
  ~Regex();

  bool matches(std::string_view text) const;
  // fn:replace; nullopt when the pattern matches the empty string or the
  // replacement is invalid (a '\' or '$' not escaping '\', '$' or a group).
  std::optional<std::string> replace(std::string_view text, std::string_view replacement) const;

 private:
  struct Compiled;
  explicit Regex(std::unique_ptr<Compiled> compiled);
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace gsparql::engine::expr
