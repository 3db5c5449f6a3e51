/* Test-only stand-in for libpomp's POMP_Get_handle: numbers the handles in the order they are bound
 * and prints each binding with its CTC string, non-printable bytes as \xHH, so that a test sees
 * which handle got which string, byte for byte. As libpomp does, a handle already bound stays as it
 * is (the load-time constructor and POMP_Init_Handles() both bind every handle of a file). */
#include "pomplib.h"

#include <stdio.h>

static POMP_Handle_t last_handle = 0;

int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) {
  const unsigned char *byte;
  unsigned long length = 0;
  if (*handle != 0)
    return POMP_SUCCESS;
  *handle = ++last_handle;
  for (byte = (const unsigned char *)ctc; *byte != 0; ++byte)
    ++length;
  printf("bind %lu (%lu bytes): ", (unsigned long)*handle, length);
  for (byte = (const unsigned char *)ctc; *byte != 0; ++byte) {
    if (*byte == '\\')
      printf("\\\\");
    else if (*byte >= ' ' && *byte <= '~')
      putchar(*byte);
    else
      printf("\\x%02x", (unsigned)*byte);
  }
  putchar('\n');
  return POMP_SUCCESS;
}
