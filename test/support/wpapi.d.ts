// wpapi 1.x ships no types; the test drives it as a user's script would, untyped.
declare module "wpapi";
