#pragma once
#include <stdexcept>

namespace gsparql {

// Every error gsparql throws derives from Error; what() carries the context
// (file and position, path, or query position) a person needs to act on it.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad RDF input: "file:line:column: what was wrong" where a position is known.
class LoadError : public Error {
 public:
  using Error::Error;
};

// A database directory that cannot be read or written: missing or corrupt
// files, failed system calls, another writer holding the lock.
class StorageError : public Error {
 public:
  using Error::Error;
};

}  // namespace gsparql
