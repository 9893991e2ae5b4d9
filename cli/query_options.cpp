#include "cli/query_options.h"

namespace gsparql::cli {

Backend parseBackend(const std::string& name) {
  if (name == "auto") return Backend::Auto;
  if (name == "cpu") return Backend::Cpu;
  if (name == "gpu") return Backend::Gpu;
  throw UsageError("unknown backend '" + name + "' (cpu, gpu or auto)");
}

Semantics parseSemantics(const std::string& name) {
  if (name == "hom" || name == "homomorphism") return Semantics::Homomorphism;
  if (name == "iso" || name == "isomorphism") return Semantics::Isomorphism;
  throw UsageError("unknown semantics '" + name + "' (hom or iso)");
}

QueryOptions queryOptionsFrom(const Arguments& args) {
  QueryOptions options;
  if (auto b = args.value("--backend")) options.backend = parseBackend(*b);
  if (auto s = args.value("--semantics")) options.semantics = parseSemantics(*s);
  return options;
}

}  // namespace gsparql::cli
