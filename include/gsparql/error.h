#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gsparql/export.h"

namespace gsparql {

// Every error gsparql throws derives from Error; what() carries the context
// (file and position, path, or query position) a person needs to act on it.
class GSPARQL_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad RDF input: "file:line:column: what was wrong" where a position is known.
class GSPARQL_API LoadError : public Error {
 public:
  using Error::Error;
};

// A database directory that cannot be read or written: missing or corrupt
// files, failed system calls, another writer holding the lock.
class GSPARQL_API StorageError : public Error {
 public:
  using Error::Error;
};

// A query that cannot run: a syntax error, or a feature the engine does not
// evaluate yet ("OPTIONAL at 3:5 is not supported yet"). line and column are
// 1-based; 0 when no position applies.
class GSPARQL_API QueryError : public Error {
 public:
  QueryError(const std::string& message, unsigned line = 0, unsigned column = 0)
      : Error(message), line_(line), column_(column) {}
  unsigned line() const { return line_; }
  unsigned column() const { return column_; }

 private:
  unsigned line_, column_;
};

// The query was stopped through QueryOptions::cancel (Ctrl-C in the REPL).
class GSPARQL_API QueryCancelled : public QueryError {
 public:
  QueryCancelled() : QueryError("query cancelled") {}
};

// The query ran past QueryOptions::timeout.
class GSPARQL_API QueryTimedOut : public QueryError {
 public:
  explicit QueryTimedOut(double seconds)
      : QueryError("query timed out after " + formatSeconds(seconds) + " s (the time limit)") {}

 private:
  static std::string formatSeconds(double seconds) {
    std::string text = std::to_string(seconds);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
    return text;
  }
};

// The query's intermediate results would need more memory than
// QueryOptions::memoryBudgetBytes allows.
class GSPARQL_API QueryOutOfMemory : public QueryError {
 public:
  QueryOutOfMemory(const std::string& what, uint64_t budgetBytes)
      : QueryError(what + " would exceed the query's memory budget of " + std::to_string(budgetBytes >> 20) +
                   " MiB") {}
};

// The result would have more rows than QueryOptions::maxRows allows.
class GSPARQL_API QueryResultTooLarge : public QueryError {
 public:
  explicit QueryResultTooLarge(uint64_t maxRows)
      : QueryError("the result has more than " + std::to_string(maxRows) + " rows (the limit)") {}
};

}  // namespace gsparql
