# Sourced by the benchmark scripts that answer a query on two sides:
#   compare_rows NAME LABEL_A FILE_A LABEL_B FILE_B
# says whether the two sorted row files are the same, and where they differ.
compare_rows() {
  local name=$1 label_a=$2 a=$3 label_b=$4 b=$5
  if cmp -s "$a" "$b"; then
    echo "$name: same $(wc -l < "$a") rows ($label_a and $label_b)"
  else
    echo "$name: DIFFERENT rows ($label_a $(wc -l < "$a"), $label_b $(wc -l < "$b"))"
    diff "$a" "$b" | head -20
  fi
}
