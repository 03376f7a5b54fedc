// Names for the scale bench's players (scripts/scale-seed.mjs): Lao given and family names in
// Lao script with the romanisation players type as usernames, and a few Chinese and Vietnamese
// names, since the agencies serve all three (the back office finds a player by a piece of a Lao
// name: decision 050). [script, romanised] pairs.

export const LAO_GIVEN = [
  ["ສົມສັກ", "somsak"],
  ["ສົມພອນ", "somphone"],
  ["ບຸນມີ", "bounmy"],
  ["ຄຳພອນ", "khamphone"],
  ["ສີສະຫວາດ", "sisavath"],
  ["ວັນນະ", "vanna"],
  ["ພອນສະຫວັນ", "phonesavanh"],
  ["ນ້ອຍ", "noy"],
  ["ແສງ", "seng"],
  ["ທອງດີ", "thongdy"],
  ["ບົວລະພາ", "bualapha"],
  ["ມະນີວັນ", "manyvanh"],
  ["ອານຸສອນ", "anousone"],
  ["ສຸລິຍາ", "souliya"],
  ["ຈັນທະວົງ", "chanthavong"],
  ["ໄຊຍະສິດ", "xayasith"],
  ["ດາວວົງ", "daovong"],
  ["ພູວົງ", "phouvong"],
  ["ສຸກສະຫວັນ", "souksavanh"],
  ["ແກ້ວ", "keo"],
  ["ນາລີ", "naly"],
  ["ວິໄລ", "vilay"],
  ["ອຸດອນ", "oudone"],
  ["ຄຳແສງ", "khamseng"],
  ["ບຸນທັນ", "bounthanh"],
  ["ມາລີ", "maly"],
  ["ສີດາ", "sida"],
  ["ພອນທິບ", "phonethip"],
  ["ທິບພະວັນ", "thipphavanh"],
  ["ຄຳຫຼ້າ", "khamla"],
  ["ວຽງໄຊ", "viengxay"],
  ["ລັດສະໝີ", "latsamy"],
];

export const LAO_FAMILY = [
  ["ພົມມະວົງສາ", "phommavongsa"],
  ["ສີສຸລາດ", "sisoulath"],
  ["ແກ້ວມະນີ", "keomany"],
  ["ວົງສະຫວັນ", "vongsavanh"],
  ["ໄຊຍະວົງ", "xayavong"],
  ["ສຸວັນນະພູມ", "souvannaphoum"],
  ["ຈັນທະລາ", "chanthala"],
  ["ອິນທະວົງ", "inthavong"],
  ["ພິລາວົງ", "philavong"],
  ["ດວງມະນີ", "douangmany"],
  ["ລາດຊະວົງ", "latsavong"],
  ["ສີປະເສີດ", "sipaseuth"],
  ["ບຸບຜາ", "bouphar"],
  ["ແສງອາລຸນ", "sengaloun"],
  ["ຄຳມະນີວົງ", "khammanivong"],
  ["ພັນທະວົງ", "phanthavong"],
  ["ສີຫາລາດ", "sihalath"],
  ["ວໍລະຈິດ", "vorachit"],
  ["ທຳມະວົງ", "thammavong"],
  ["ຫຼວງລາດ", "luanglath"],
  ["ບຸນຍະວົງ", "bounyavong"],
  ["ສິດທິລາດ", "sitthilath"],
];

/** Whole names: [display name, romanised base of the username]. */
export const OTHER_NAMES = [
  ["王伟", "wangwei"],
  ["李娜", "lina"],
  ["张敏", "zhangmin"],
  ["刘洋", "liuyang"],
  ["陈杰", "chenjie"],
  ["杨静", "yangjing"],
  ["Nguyễn Văn An", "nguyenvanan"],
  ["Trần Thị Hoa", "tranthihoa"],
  ["Lê Minh Tuấn", "leminhtuan"],
  ["Phạm Thu Trang", "phamthutrang"],
  ["Hoàng Đức Long", "hoangduclong"],
  ["Vũ Thị Mai", "vuthimai"],
];

/** A romanised name as a person writes it: "Somsak Phommavongsa". */
export const titleCase = (text) => text.charAt(0).toUpperCase() + text.slice(1);
