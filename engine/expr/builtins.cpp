#include "engine/expr/builtins.h"

namespace gsparql::engine::expr {

const Builtin* findBuiltin(std::string_view name) {
  static const std::unordered_map<std::string_view, Builtin> table = [] {
    std::unordered_map<std::string_view, Builtin> all;
    for (auto family : {operatorBuiltins, stringBuiltins, termBuiltins, hashBuiltins, castBuiltins, geoBuiltins}) {
      for (const Builtin& b : family()) all.emplace(b.name, b);
    }
    return all;
  }();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace gsparql::engine::expr
