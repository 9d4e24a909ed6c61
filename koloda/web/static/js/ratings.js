// The page of /leaderboard/<game> and /player/<name> (one HTML file): the path says which.
if (location.pathname.startsWith("/player/")) import("./player.js");
else import("./leaderboard.js");
