function shq(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
# shq(s): s as one word for sh, in single quotes (each quote in it closed,
# escaped and opened again), for the commands an awk program starts with
# getline. The definition is the first line, and one line: the scripts read
# it with the shell's own read (no process) and put it before their program
# text (mawk takes no -f beside a program given as text); awk -f reads it as is.
