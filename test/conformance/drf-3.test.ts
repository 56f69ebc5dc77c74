import { walkDrfApis } from "./drf-walk.js";

walkDrfApis({ index: 3, of: 4 });
