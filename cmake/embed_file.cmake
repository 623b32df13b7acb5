# Writes a C file holding INPUT's bytes as an array named SYMBOL (NUL
# terminated) and its length SYMBOL_size, so the library carries a resource
# without reading a data file at run time.
#   cmake -DINPUT=<file> -DOUTPUT=<file.c> -DSYMBOL=<name> -P embed_file.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
get_filename_component(input_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}"
  "/* Generated from ${input_name} by cmake/embed_file.cmake: do not edit. */\n"
  "#include <stddef.h>\n\n"
  "const unsigned char ${SYMBOL}[] = {\n${bytes}0};\n"
  "const size_t ${SYMBOL}_size = ${size};\n")
