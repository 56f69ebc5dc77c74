import { walkDrfApis } from "./drf-walk.js";

walkDrfApis({ index: 2, of: 4 });
