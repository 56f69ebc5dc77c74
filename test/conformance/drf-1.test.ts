import { walkDrfApis } from "./drf-walk.js";

walkDrfApis({ index: 1, of: 4 });
