// Stand-alone `gsparql parse` until the CLI wires the subcommand in; also
// what the conformance runner and manual checks call.
#include "cli/parse_command.h"

int main(int argc, char** argv) { return gsparql::cli::runParseCommand(argc, argv); }
