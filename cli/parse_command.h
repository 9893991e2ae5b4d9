#pragma once
// `gsparql parse [QUERY | -f FILE]`: prints the algebra of a query and the
// query graph of each of its basic graph patterns.

namespace gsparql::cli {

// argv[0] is the subcommand name ("parse"). Returns the process exit code:
// 0 parsed, 1 syntax error (message on stderr), 2 usage or I/O error.
int runParseCommand(int argc, char** argv);

}  // namespace gsparql::cli
