/*@ comment @*/
/*@ storage @*/ int dynac_kernel_/*@ name @*/(/*@ params @*/)
{
  /*@ locals @*/
  /*@ body @*/
  /*@ end @*/
}
