// The page of /leaderboard/<game> and /player/<name> (one HTML file): the path says which.
import { here } from "./common.js";

if (here().startsWith("/player/")) import("./player.js");
else import("./leaderboard.js");
