PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX : <http://example/>
INSERT { << ?s ?p ?o >> :source ?g . ?s ?p ?o {| :seen true |} }
WHERE { GRAPH ?g { ?s ?p ?o } } ;
DELETE { ?r :source ?g } WHERE { ?r rdf:reifies <<( ?s ?p ?o )>> ; :source ?g }
