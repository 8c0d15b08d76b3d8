/* The lab's subcommands, one file each (builtin-<name>.c), listed in lab.c. */
#ifndef LAB_BUILTIN_H
#define LAB_BUILTIN_H

int cmd_boot(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_profiles(int argc, char **argv);

#endif
