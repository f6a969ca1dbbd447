export async function runSeed(): Promise<number> {
  return 0;
}
