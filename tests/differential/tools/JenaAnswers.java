// Runs queries with Apache Jena ARQ over one in-memory dataset, as `arq.sparql
// --data F1 --data F2 ... --query Q --results=json|nt` would, but in one JVM so
// that regenerating every answer takes seconds (see jena-answers.sh).
//   java -cp JENA_CLASSPATH JenaAnswers.java OUT_DIR DATA_FILE... -- QUERY_FILE...
// Writes OUT_DIR/NAME.srj (SELECT, ASK) or OUT_DIR/NAME.nt (CONSTRUCT, DESCRIBE).
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.jena.query.Dataset;
import org.apache.jena.query.DatasetFactory;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryExecutionFactory;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.ResultSetFormatter;
import org.apache.jena.rdf.model.Model;
import org.apache.jena.riot.Lang;
import org.apache.jena.riot.RDFDataMgr;
import org.apache.jena.sys.JenaSystem;

public class JenaAnswers {
  public static void main(String[] args) throws Exception {
    JenaSystem.init();
    Path out = Path.of(args[0]);
    List<String> data = new ArrayList<>();
    List<String> queries = new ArrayList<>();
    boolean inQueries = false;
    for (int i = 1; i < args.length; ++i) {
      if (args[i].equals("--")) inQueries = true;
      else if (inQueries) queries.add(args[i]);
      else data.add(args[i]);
    }
    Dataset dataset = DatasetFactory.create();
    for (String f : data) RDFDataMgr.read(dataset, f);  // into the default graph, as arq --data
    boolean failed = false;
    for (String qf : queries) {
      String name = Path.of(qf).getFileName().toString().replaceAll("\\.rq$", "");
      Query query;
      try {
        query = QueryFactory.read(qf);
      } catch (Exception e) {
        System.err.println(name + ": FAILED: " + e);
        failed = true;
        continue;
      }
      try (QueryExecution exec = QueryExecutionFactory.create(query, dataset)) {
        if (query.isSelectType()) {
          try (OutputStream os = new FileOutputStream(out.resolve(name + ".srj").toFile())) {
            ResultSetFormatter.outputAsJSON(os, exec.execSelect());
          }
        } else if (query.isAskType()) {
          try (OutputStream os = new FileOutputStream(out.resolve(name + ".srj").toFile())) {
            ResultSetFormatter.outputAsJSON(os, exec.execAsk());
          }
        } else {
          Model m = query.isConstructType() ? exec.execConstruct() : exec.execDescribe();
          try (OutputStream os = new FileOutputStream(out.resolve(name + ".nt").toFile())) {
            RDFDataMgr.write(os, m, Lang.NTRIPLES);
          }
        }
      } catch (Exception e) {
        System.err.println(name + ": FAILED: " + e);
        failed = true;
        continue;
      }
      System.err.println(name);
    }
    System.exit(failed ? 1 : 0);
  }
}
