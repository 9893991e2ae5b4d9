# Sourced by the GPU machine's scripts that run Virtuoso 7.2.5 beside gsparql
# (../shared/tools/README.md): carry .carry/virtuoso (virtuoso-7.2.5.tar.gz and
# virtuoso.ini.template from ../shared/tools).
#   virtuoso_setup DIR THREADS NUMBUF [SED_EXPRESSION]  unpack, write DIR/db/virtuoso.ini (data folder DIR/data)
#   virtuoso_start / isql "STATEMENT;" / virtuoso_stop
virtuoso_setup() {
  v=$1
  mkdir -p "$v/db" "$v/data"
  tar xzf .carry/virtuoso/virtuoso-7.2.5.tar.gz -C "$v"
  sed -e "s|@DIR@|$v/db|g; s|@DATA@|$v/data|g; s|@THREADS@|$2|g; s|@NUMBUF@|$3|g; s|@MAXDIRTY@|$(($3 * 3 / 4))|g" \
    -e "${4:-}" .carry/virtuoso/virtuoso.ini.template > "$v/db/virtuoso.ini"
  vbin=$(dirname "$(find "$v" -name virtuoso-t -type f | head -1)")
  vlib=$(dirname "$(find "$v" -name 'lib*.so*' | head -1)")
}
isql() { LD_LIBRARY_PATH=$vlib "$vbin/isql-vt" 127.0.0.1:1111 dba dba "exec=$1"; }
virtuoso_start() {
  (cd "$v/db" && LD_LIBRARY_PATH=$vlib "$vbin/virtuoso-t" +configfile "$v/db/virtuoso.ini" +foreground > "$v/virtuoso.out" 2>&1 &)
  for _ in $(seq 300); do isql "select 1;" > /dev/null 2>&1 && return 0; sleep 1; done
  echo "Virtuoso did not answer in 300 s" >&2
  return 1
}
virtuoso_stop() { isql "raw_exit();" > /dev/null 2>&1; sleep 2; }
