// libedit's readline-compatible API: no variadic functions, so Swift can call it directly.
// Never include GNU readline's headers alongside: the struct layouts differ.
#include <stdio.h>
#include <editline/readline.h>
