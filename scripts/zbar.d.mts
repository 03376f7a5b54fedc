export function readQrFile(file: string): string;
