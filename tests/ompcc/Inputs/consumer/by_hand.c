/* A user region measured through the POMP API called by hand. */
#include "pomplib.h"

#include <stdio.h>

static POMP_Handle_t Region;
static const char RegionCtc[] = "59*type=userregion*name=by_hand*file=by_hand.c*slines=11,11**";

int main(void) {
  POMP_Init();
  POMP_User_region_begin(&Region, 0, RegionCtc);
  printf("by hand\n");
  POMP_User_region_end(Region, 0);
  POMP_Finalize();
  return 0;
}
