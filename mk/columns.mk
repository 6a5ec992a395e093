# The toolchains table (toolchains: a fact a line, comments "#"), read by
# make itself, no process: its lines as words, blanks as $(us).
tc_table_lines := $(subst $(us)$(us),$(us),$(subst $(us)$(us),$(us),$(subst $(space),$(us),$(file <toolchains))))
tc_table_lines := $(filter-out $(hash)%,$(subst $(newline), ,$(tc_table_lines)))
# Its columns, in their order, its linkers, and a linker's package.
TC_COLUMNS := $(patsubst column$(us)%,%,$(filter column$(us)%,$(tc_table_lines)))
TC_LINKERS := $(foreach l,$(filter linker$(us)%,$(tc_table_lines)),$(word 2,$(subst $(us), ,$l)))
tc_package = $(word 3,$(subst $(us), ,$(filter linker$(us)$1$(us)%,$(tc_table_lines))))
