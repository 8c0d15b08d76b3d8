/* console.h - the kernel's lines on the serial console (console.log), as
 * printk writes them with CONFIG_PRINTK_TIME:
 *
 *     [    2.587360] WARNING: CPU: 0 PID: 46 at drivers/x.c:12 func+0x1a/0x30
 *
 * "[", blanks, seconds, ".", six digits of microseconds, "] ", the text.
 * A line may end in "\r\n". Other lines (the agent's own output, a shell on
 * an interactive console) are not the kernel's.
 */
#ifndef OOMLAB_CONSOLE_H
#define OOMLAB_CONSOLE_H

#include <stdbool.h>
#include <stdint.h>

/* Parses one line (its end of line is cut in place); false when it is
 * not a kernel line. *TEXT points into LINE. */
bool console_parse_line(char *line, uint64_t *usec, const char **text);

#endif
