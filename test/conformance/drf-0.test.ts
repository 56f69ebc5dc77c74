import { walkDrfApis } from "./drf-walk.js";

walkDrfApis({ index: 0, of: 4 });
