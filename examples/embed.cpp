// Embedding gsparql: load a file into a database, run a query, print rows.
//   gsparql_embed_example DB_DIR DATA_FILE 'SELECT ...'
#include <gsparql/gsparql.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: " << argv[0] << " DB_DIR DATA_FILE QUERY\n";
    return 2;
  }
  try {
    gsparql::LoadSummary loaded = gsparql::Database::load(argv[1], {argv[2]});
    std::cout << "loaded " << loaded.uniqueTriples << " triples\n";

    gsparql::Database db(argv[1]);
    gsparql::QueryResult result = db.query(argv[3]);
    for (const std::string& variable : result.variables()) std::cout << "?" << variable << "\t";
    std::cout << "\n";
    result.forEachRow([](std::span<const gsparql::Term> row) {
      for (const gsparql::Term& term : row) std::cout << term.value_or("(unbound)") << "\t";
      std::cout << "\n";
    });
    std::cout << result.rowCount() << " rows\n";
  } catch (const gsparql::QueryError& e) {
    std::cerr << "query error at " << e.line() << ":" << e.column() << ": " << e.what() << "\n";
    return 1;
  } catch (const gsparql::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
