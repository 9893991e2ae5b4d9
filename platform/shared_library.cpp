#include "platform/shared_library.h"

#include <dlfcn.h>

#include "gsparql/error.h"

namespace gsparql {

SharedLibrary::SharedLibrary(std::string soname, std::string purpose)
    : soname_(std::move(soname)), purpose_(std::move(purpose)) {
  // RTLD_NOW: a library missing one of its own symbols fails here, in one
  // message, rather than at some later call. RTLD_LOCAL: its symbols stay
  // out of the global scope, as the table of functions is the one way in.
  handle_ = dlopen(soname_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    throw Error(purpose_ + " needs " + soname_ + ", which cannot be loaded: " + (why ? why : "unknown reason") +
                " (on Debian, install the package that holds it)");
  }
}

void* SharedLibrary::symbol(const char* name) const {
  dlerror();  // clears an earlier error: a symbol's address may be null
  void* address = dlsym(handle_, name);
  if (address == nullptr) {
    const char* why = dlerror();
    throw Error(purpose_ + " needs " + name + " from " + soname_ + ", which lacks it" +
                (why ? std::string(": ") + why : std::string()));
  }
  return address;
}

}  // namespace gsparql
