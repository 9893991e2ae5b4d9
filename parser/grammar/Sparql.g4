// SPARQL 1.1 Query Language, transcribed from section 19.8 of the W3C
// recommendation (https://www.w3.org/TR/sparql11-query/#sparqlGrammar).
// Deviations, each for a reason:
//  - Right-recursive lists (TriplesBlock) are written as loops so a long
//    query cannot exhaust the stack.
//  - CONSTRUCT templates use the triples-with-paths rules (TriplesTemplate and
//    ConstructTriples become triplesBlock); the tree walker rejects paths
//    there. This keeps one set of triple rules and one walker for them.
//  - Keywords are case-insensitive through letter fragments (ANTLR 4.7 has no
//    caseInsensitive option); `a` stays case-sensitive as the spec says.
//  - BuiltInCall alternatives are grouped by arity; the tree walker reads the
//    function name from the first token.
//  - SPARQL 1.2 (the Query draft's grammar): VERSION, triple terms `<<( )>>`
//    in patterns, VALUES and expressions, reified triples `<< >>`, reifiers
//    `~` and annotations `{| |}` (on the path rules only, as above), the
//    functions on triple terms and base directions, and LANGTAG's `--dir`.
//  - SPARQL 1.1 Update (section 19.8 of the Query recommendation, rules 3 and
//    29-51): `updateUnit`, with the right recursion of Update written as a
//    loop; templates and quad data use triplesBlock as CONSTRUCT does.
grammar Sparql;

queryUnit : prologue query EOF ;
updateUnit : prologue ( update1 ( ';' prologue update1 )* ( ';' prologue )? )? EOF ;
update1 : load | clear | drop | add | move | copy | create | insertData | deleteData | deleteWhere | modify ;
load : LOAD SILENT? iri ( INTO graphRef )? ;
clear : CLEAR SILENT? graphRefAll ;
drop : DROP SILENT? graphRefAll ;
create : CREATE SILENT? graphRef ;
add : ADD SILENT? graphOrDefault TO graphOrDefault ;
move : MOVE SILENT? graphOrDefault TO graphOrDefault ;
copy : COPY SILENT? graphOrDefault TO graphOrDefault ;
insertData : INSERT DATA quadData ;
deleteData : DELETE DATA quadData ;
deleteWhere : DELETE WHERE quadPattern ;
modify : ( WITH iri )? ( deleteClause insertClause? | insertClause ) usingClause* WHERE groupGraphPattern ;
deleteClause : DELETE quadPattern ;
insertClause : INSERT quadPattern ;
usingClause : USING NAMED? iri ;
graphOrDefault : DEFAULT | GRAPH? iri ;
graphRef : GRAPH iri ;
graphRefAll : graphRef | DEFAULT | NAMED | ALL ;
quadPattern : '{' quads '}' ;
quadData : '{' quads '}' ;
quads : triplesBlock? ( quadsNotTriples '.'? triplesBlock? )* ;
quadsNotTriples : GRAPH varOrIri '{' triplesBlock? '}' ;
query : ( selectQuery | constructQuery | describeQuery | askQuery ) valuesClause ;
prologue : ( baseDecl | prefixDecl | versionDecl )* ;
versionDecl : VERSION ( STRING_LITERAL1 | STRING_LITERAL2 ) ;
baseDecl : BASE IRIREF ;
prefixDecl : PREFIX PNAME_NS IRIREF ;
selectQuery : selectClause datasetClause* whereClause solutionModifier ;
subSelect : selectClause whereClause solutionModifier valuesClause ;
selectClause : SELECT ( DISTINCT | REDUCED )? ( selectItem+ | '*' ) ;
selectItem : var | '(' expression AS var ')' ;
constructQuery : CONSTRUCT ( constructTemplate datasetClause* whereClause solutionModifier
                           | datasetClause* WHERE '{' triplesBlock? '}' solutionModifier ) ;
describeQuery : DESCRIBE ( varOrIri+ | '*' ) datasetClause* whereClause? solutionModifier ;
askQuery : ASK datasetClause* whereClause solutionModifier ;
datasetClause : FROM NAMED? iri ;
whereClause : WHERE? groupGraphPattern ;
solutionModifier : groupClause? havingClause? orderClause? limitOffsetClauses? ;
groupClause : GROUP BY groupCondition+ ;
groupCondition : builtInCall | functionCall | '(' expression ( AS var )? ')' | var ;
havingClause : HAVING constraint+ ;
orderClause : ORDER BY orderCondition+ ;
orderCondition : ( ASC | DESC ) brackettedExpression | constraint | var ;
limitOffsetClauses : limitClause offsetClause? | offsetClause limitClause? ;
limitClause : LIMIT INTEGER ;
offsetClause : OFFSET INTEGER ;
valuesClause : ( VALUES dataBlock )? ;
groupGraphPattern : '{' ( subSelect | groupGraphPatternSub ) '}' ;
groupGraphPatternSub : triplesBlock? ( graphPatternNotTriples '.'? triplesBlock? )* ;
triplesBlock : triplesSameSubjectPath ( '.' triplesSameSubjectPath )* '.'? ;
graphPatternNotTriples : groupOrUnionGraphPattern | optionalGraphPattern | minusGraphPattern
                       | graphGraphPattern | serviceGraphPattern | filter | bind | inlineData ;
optionalGraphPattern : OPTIONAL groupGraphPattern ;
graphGraphPattern : GRAPH varOrIri groupGraphPattern ;
serviceGraphPattern : SERVICE SILENT? varOrIri groupGraphPattern ;
bind : BIND '(' expression AS var ')' ;
inlineData : VALUES dataBlock ;
dataBlock : inlineDataOneVar | inlineDataFull ;
inlineDataOneVar : var '{' dataBlockValue* '}' ;
inlineDataFull : ( NIL | '(' var* ')' ) '{' dataBlockRow* '}' ;
dataBlockRow : '(' dataBlockValue* ')' | NIL ;
dataBlockValue : iri | rdfLiteral | numericLiteral | booleanLiteral | UNDEF | tripleTermData ;
tripleTermData : '<<(' iri ( iri | 'a' ) tripleTermDataObject ')>>' ;
tripleTermDataObject : iri | rdfLiteral | numericLiteral | booleanLiteral | tripleTermData ;
minusGraphPattern : MINUS groupGraphPattern ;
groupOrUnionGraphPattern : groupGraphPattern ( UNION groupGraphPattern )* ;
filter : FILTER constraint ;
constraint : brackettedExpression | builtInCall | functionCall ;
functionCall : iri argList ;
argList : NIL | '(' DISTINCT? expression ( ',' expression )* ')' ;
expressionList : NIL | '(' expression ( ',' expression )* ')' ;
constructTemplate : '{' triplesBlock? '}' ;
triplesSameSubjectPath : varOrTerm propertyListPathNotEmpty | triplesNodePath propertyListPath
                       | reifiedTriple propertyListPath ;
propertyListPath : propertyListPathNotEmpty? ;
propertyListPathNotEmpty : verbPathOrSimple objectListPath ( ';' ( verbPathOrSimple objectListPath )? )* ;
verbPathOrSimple : path | var ;
objectListPath : objectPath ( ',' objectPath )* ;
objectPath : graphNodePath annotationPath ;
annotationPath : ( reifier | annotationBlockPath )* ;
reifier : '~' varOrReifierId? ;
varOrReifierId : var | iri | blankNode ;
annotationBlockPath : '{|' propertyListPathNotEmpty '|}' ;
path : pathSequence ( '|' pathSequence )* ;
pathSequence : pathEltOrInverse ( '/' pathEltOrInverse )* ;
pathEltOrInverse : '^'? pathPrimary pathMod? ;
pathMod : '?' | '*' | '+' ;
pathPrimary : iri | 'a' | '!' pathNegatedPropertySet | '(' path ')' ;
pathNegatedPropertySet : pathOneInPropertySet | '(' ( pathOneInPropertySet ( '|' pathOneInPropertySet )* )? ')' | NIL ;
pathOneInPropertySet : '^'? ( iri | 'a' ) ;
triplesNodePath : collectionPath | blankNodePropertyListPath ;
blankNodePropertyListPath : '[' propertyListPathNotEmpty ']' ;
collectionPath : '(' graphNodePath+ ')' ;
graphNodePath : varOrTerm | triplesNodePath | reifiedTriple ;
varOrTerm : var | graphTerm | tripleTerm ;
reifiedTriple : '<<' reifiedTripleSubject verb reifiedTripleObject reifier? '>>' ;
reifiedTripleSubject : var | iri | blankNode | reifiedTriple | tripleTerm ;
reifiedTripleObject : var | iri | rdfLiteral | numericLiteral | booleanLiteral | blankNode | reifiedTriple | tripleTerm ;
tripleTerm : '<<(' tripleTermSubject verb tripleTermObject ')>>' ;
tripleTermSubject : var | iri | blankNode | tripleTerm ;
tripleTermObject : var | iri | rdfLiteral | numericLiteral | booleanLiteral | blankNode | tripleTerm ;
verb : var | iri | 'a' ;
varOrIri : var | iri ;
var : VAR1 | VAR2 ;
graphTerm : iri | rdfLiteral | numericLiteral | booleanLiteral | blankNode | NIL ;
expression : conditionalAndExpression ( '||' conditionalAndExpression )* ;
conditionalAndExpression : relationalExpression ( '&&' relationalExpression )* ;
relationalExpression : additiveExpression ( op=( '=' | '!=' | '<' | '>' | '<=' | '>=' ) additiveExpression
                                          | NOT? IN expressionList )? ;
additiveExpression : multiplicativeExpression additiveTail* ;
additiveTail : op=( '+' | '-' ) multiplicativeExpression
             | signedNumericLiteral multiplicativeTail* ;
multiplicativeExpression : unaryExpression multiplicativeTail* ;
multiplicativeTail : op=( '*' | '/' ) unaryExpression ;
unaryExpression : op='!' unaryExpression | op=( '+' | '-' )? primaryExpression ;  // SPARQL 1.2: !!x
primaryExpression : brackettedExpression | builtInCall | iriOrFunction | rdfLiteral
                  | numericLiteral | booleanLiteral | var | exprTripleTerm ;
exprTripleTerm : '<<(' varOrIri verb exprTripleTermObject ')>>' ;
exprTripleTermObject : iri | rdfLiteral | numericLiteral | booleanLiteral | var | exprTripleTerm ;
brackettedExpression : '(' expression ')' ;
builtInCall : aggregate
            | ( STR | LANG | DATATYPE | IRI | URI | ABS | CEIL | FLOOR | ROUND | STRLEN | UCASE | LCASE
              | ENCODE_FOR_URI | YEAR | MONTH | DAY | HOURS | MINUTES | SECONDS | TIMEZONE | TZ
              | MD5 | SHA1 | SHA256 | SHA384 | SHA512 | ISIRI | ISURI | ISBLANK | ISLITERAL | ISNUMERIC
              | LANGDIR | HASLANG | HASLANGDIR | ISTRIPLE | SUBJECT | PREDICATE | OBJECT )
              '(' expression ')'
            | ( LANGMATCHES | CONTAINS | STRSTARTS | STRENDS | STRBEFORE | STRAFTER | STRLANG | STRDT
              | SAMETERM ) '(' expression ',' expression ')'
            | ( SUBSTR | REGEX ) '(' expression ',' expression ( ',' expression )? ')'
            | REPLACE '(' expression ',' expression ',' expression ( ',' expression )? ')'
            | ( STRLANGDIR | TRIPLE ) '(' expression ',' expression ',' expression ')'
            | IF '(' expression ',' expression ',' expression ')'
            | BOUND '(' var ')'
            | BNODE ( '(' expression ')' | NIL )
            | ( RAND | NOW | UUID | STRUUID ) NIL
            | ( CONCAT | COALESCE ) expressionList
            | NOT? EXISTS groupGraphPattern ;
aggregate : COUNT '(' DISTINCT? ( '*' | expression ) ')'
          | ( SUM | MIN | MAX | AVG | SAMPLE ) '(' DISTINCT? expression ')'
          | GROUP_CONCAT '(' DISTINCT? expression ( ';' SEPARATOR '=' string )? ')' ;
iriOrFunction : iri argList? ;
rdfLiteral : string ( LANGTAG | '^^' iri )? ;
numericLiteral : INTEGER | DECIMAL | DOUBLE | signedNumericLiteral ;
signedNumericLiteral : INTEGER_POSITIVE | DECIMAL_POSITIVE | DOUBLE_POSITIVE
                     | INTEGER_NEGATIVE | DECIMAL_NEGATIVE | DOUBLE_NEGATIVE ;
booleanLiteral : TRUE | FALSE ;
string : STRING_LITERAL1 | STRING_LITERAL2 | STRING_LITERAL_LONG1 | STRING_LITERAL_LONG2 ;
iri : IRIREF | PNAME_LN | PNAME_NS ;
blankNode : BLANK_NODE_LABEL | ANON ;

// ---- keywords (case-insensitive) ----
BASE : B A S E ; PREFIX : P R E F I X ; SELECT : S E L E C T ; DISTINCT : D I S T I N C T ;
REDUCED : R E D U C E D ; AS : A S ; CONSTRUCT : C O N S T R U C T ; WHERE : W H E R E ;
DESCRIBE : D E S C R I B E ; ASK : A S K ; FROM : F R O M ; NAMED : N A M E D ;
GROUP : G R O U P ; BY : B Y ; HAVING : H A V I N G ; ORDER : O R D E R ; ASC : A S C ;
DESC : D E S C ; LIMIT : L I M I T ; OFFSET : O F F S E T ; VALUES : V A L U E S ;
OPTIONAL : O P T I O N A L ; GRAPH : G R A P H ; SERVICE : S E R V I C E ; SILENT : S I L E N T ;
BIND : B I N D ; UNDEF : U N D E F ; MINUS : M I N U S ; UNION : U N I O N ; FILTER : F I L T E R ;
NOT : N O T ; IN : I N ; TRUE : T R U E ; FALSE : F A L S E ; EXISTS : E X I S T S ;
STR : S T R ; LANG : L A N G ; LANGMATCHES : L A N G M A T C H E S ; DATATYPE : D A T A T Y P E ;
BOUND : B O U N D ; IRI : I R I ; URI : U R I ; BNODE : B N O D E ; RAND : R A N D ; ABS : A B S ;
CEIL : C E I L ; FLOOR : F L O O R ; ROUND : R O U N D ; CONCAT : C O N C A T ;
STRLEN : S T R L E N ; UCASE : U C A S E ; LCASE : L C A S E ;
ENCODE_FOR_URI : E N C O D E '_' F O R '_' U R I ; CONTAINS : C O N T A I N S ;
STRSTARTS : S T R S T A R T S ; STRENDS : S T R E N D S ; STRBEFORE : S T R B E F O R E ;
STRAFTER : S T R A F T E R ; YEAR : Y E A R ; MONTH : M O N T H ; DAY : D A Y ;
HOURS : H O U R S ; MINUTES : M I N U T E S ; SECONDS : S E C O N D S ;
TIMEZONE : T I M E Z O N E ; TZ : T Z ; NOW : N O W ; UUID : U U I D ; STRUUID : S T R U U I D ;
MD5 : M D '5' ; SHA1 : S H A '1' ; SHA256 : S H A '256' ; SHA384 : S H A '384' ;
SHA512 : S H A '512' ; COALESCE : C O A L E S C E ; IF : I F ; STRLANG : S T R L A N G ;
STRDT : S T R D T ; SAMETERM : S A M E T E R M ; ISIRI : I S I R I ; ISURI : I S U R I ;
ISBLANK : I S B L A N K ; ISLITERAL : I S L I T E R A L ; ISNUMERIC : I S N U M E R I C ;
REGEX : R E G E X ; SUBSTR : S U B S T R ; REPLACE : R E P L A C E ;
COUNT : C O U N T ; SUM : S U M ; MIN : M I N ; MAX : M A X ; AVG : A V G ; SAMPLE : S A M P L E ;
GROUP_CONCAT : G R O U P '_' C O N C A T ; SEPARATOR : S E P A R A T O R ;
// SPARQL 1.2.
VERSION : V E R S I O N ; LANGDIR : L A N G D I R ; STRLANGDIR : S T R L A N G D I R ;
HASLANG : H A S L A N G ; HASLANGDIR : H A S L A N G D I R ; ISTRIPLE : I S T R I P L E ;
TRIPLE : T R I P L E ; SUBJECT : S U B J E C T ; PREDICATE : P R E D I C A T E ; OBJECT : O B J E C T ;
// SPARQL Update.
INSERT : I N S E R T ; DELETE : D E L E T E ; LOAD : L O A D ; CLEAR : C L E A R ;
DROP : D R O P ; CREATE : C R E A T E ; ADD : A D D ; MOVE : M O V E ; COPY : C O P Y ;
WITH : W I T H ; DATA : D A T A ; INTO : I N T O ; TO : T O ; DEFAULT : D E F A U L T ;
ALL : A L L ; USING : U S I N G ;

// ---- terminals (section 19.8, productions 139-173) ----
IRIREF : '<' ( ~[<>"{}|^`\\\u0000-\u0020] | UCHAR )* '>' ;
PNAME_NS : PN_PREFIX? ':' ;
PNAME_LN : PNAME_NS PN_LOCAL ;
BLANK_NODE_LABEL : '_:' ( PN_CHARS_U | [0-9] ) ( ( PN_CHARS | '.' )* PN_CHARS )? ;
VAR1 : '?' VARNAME ;
VAR2 : '$' VARNAME ;
LANGTAG : '@' [a-zA-Z]+ ( '-' [a-zA-Z0-9]+ )* ( '--' [a-zA-Z]+ )? ;
INTEGER : [0-9]+ ;
DECIMAL : [0-9]* '.' [0-9]+ ;
DOUBLE : [0-9]+ '.' [0-9]* EXPONENT | '.' [0-9]+ EXPONENT | [0-9]+ EXPONENT ;
INTEGER_POSITIVE : '+' INTEGER ;
DECIMAL_POSITIVE : '+' DECIMAL ;
DOUBLE_POSITIVE : '+' DOUBLE ;
INTEGER_NEGATIVE : '-' INTEGER ;
DECIMAL_NEGATIVE : '-' DECIMAL ;
DOUBLE_NEGATIVE : '-' DOUBLE ;
STRING_LITERAL1 : '\'' ( ~['\\\n\r] | ECHAR | UCHAR )* '\'' ;
STRING_LITERAL2 : '"' ( ~["\\\n\r] | ECHAR | UCHAR )* '"' ;
STRING_LITERAL_LONG1 : '\'\'\'' ( ( '\'' | '\'\'' )? ( ~['\\] | ECHAR | UCHAR ) )* '\'\'\'' ;
STRING_LITERAL_LONG2 : '"""' ( ( '"' | '""' )? ( ~["\\] | ECHAR | UCHAR ) )* '"""' ;
NIL : '(' WS_CHAR* ')' ;
ANON : '[' WS_CHAR* ']' ;
WS : WS_CHAR+ -> skip ;
COMMENT : '#' ~[\r\n]* -> skip ;

fragment EXPONENT : [eE] [+-]? [0-9]+ ;
fragment ECHAR : '\\' [tbnrf\\"'] ;
fragment UCHAR : '\\u' HEX HEX HEX HEX | '\\U' HEX HEX HEX HEX HEX HEX HEX HEX ;
fragment WS_CHAR : [ \t\r\n] ;
fragment PN_CHARS_BASE : [A-Za-z] | [\u00C0-\u00D6] | [\u00D8-\u00F6] | [\u00F8-\u02FF]
  | [\u0370-\u037D] | [\u037F-\u1FFF] | [\u200C-\u200D] | [\u2070-\u218F] | [\u2C00-\u2FEF]
  | [\u3001-\uD7FF] | [\uF900-\uFDCF] | [\uFDF0-\uFFFD] | [\u{10000}-\u{EFFFF}] ;
fragment PN_CHARS_U : PN_CHARS_BASE | '_' ;
fragment VARNAME : ( PN_CHARS_U | [0-9] ) ( PN_CHARS_U | [0-9] | '\u00B7' | [\u0300-\u036F] | [\u203F-\u2040] )* ;
fragment PN_CHARS : PN_CHARS_U | '-' | [0-9] | '\u00B7' | [\u0300-\u036F] | [\u203F-\u2040] ;
fragment PN_PREFIX : PN_CHARS_BASE ( ( PN_CHARS | '.' )* PN_CHARS )? ;
fragment PN_LOCAL : ( PN_CHARS_U | ':' | [0-9] | PLX ) ( ( PN_CHARS | '.' | ':' | PLX )* ( PN_CHARS | ':' | PLX ) )? ;
fragment PLX : PERCENT | PN_LOCAL_ESC ;
fragment PERCENT : '%' HEX HEX ;
fragment HEX : [0-9A-Fa-f] ;
fragment PN_LOCAL_ESC : '\\' [_~.\-!$&'()*+,;=/?#@%] ;

fragment A : [aA] ; fragment B : [bB] ; fragment C : [cC] ; fragment D : [dD] ; fragment E : [eE] ;
fragment F : [fF] ; fragment G : [gG] ; fragment H : [hH] ; fragment I : [iI] ; fragment J : [jJ] ;
fragment K : [kK] ; fragment L : [lL] ; fragment M : [mM] ; fragment N : [nN] ; fragment O : [oO] ;
fragment P : [pP] ; fragment Q : [qQ] ; fragment R : [rR] ; fragment S : [sS] ; fragment T : [tT] ;
fragment U : [uU] ; fragment V : [vV] ; fragment W : [wW] ; fragment X : [xX] ; fragment Y : [yY] ;
fragment Z : [zZ] ;
