-- Demo agency for local use (npm start) and tests. Idempotent: safe to run again.
INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('demo', 'Demo Agency', 'ACTIVE');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('localhost', 'demo'), ('127.0.0.1', 'demo');
INSERT INTO agency_settings (agency_id, fallback_language, social_telegram, social_whatsapp, social_facebook, social_twitter, social_line, deposit_min, deposit_max, withdraw_min, withdraw_max)
VALUES ('demo', 'lo', 'https://t.me/demo_agency', 'https://wa.me/8562055555555', 'https://www.facebook.com/demo.agency', 'https://x.com/demo_agency', 'https://line.me/R/ti/p/@demo_agency', '10000', '50000000', '100', '50000')
ON CONFLICT(agency_id) DO UPDATE SET deposit_min = excluded.deposit_min, deposit_max = excluded.deposit_max, withdraw_min = excluded.withdraw_min, withdraw_max = excluded.withdraw_max;
-- Deposits in LAK go to the sandbox bank's demo merchant; 1 THB of credit = 600 LAK (sell), 580 LAK (buy back).
INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway)
VALUES ('demo', 'BCEL-QR', 'DEMO0001', 'BCEL OnePay (LAO QR)', 'LAK', 'BCEL', '27710418', 'DEMO AGENCY', 'VIENTIANE', 'sandbox');
INSERT OR IGNORE INTO exchange_rates (agency_id, currency, buy, sell) VALUES ('demo', 'THB', '580', '600');
-- A disabled agency, reachable as disabled.localhost, to see the error page.
INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('closed', 'Closed Agency', 'DISABLED');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('disabled.localhost', 'closed');
INSERT OR IGNORE INTO agency_settings (agency_id) VALUES ('closed');
-- Demo promotions (docs/decisions/006-promotions.md explains the values). Titles and descriptions in lo/cn/vn.
INSERT OR IGNORE INTO promotions (id, agency_id, status, title, description, image_url, bonus_kind, bonus_value, bonus_cap, set_amount, first_order_only, credit_threshold, turnover_multiple, max_withdraw_credit, withdraw_all, providers, sort_order)
VALUES ('welcome-100', 'demo', 'ACTIVE',
  '{"lo":"ໂບນັດຕ້ອນຮັບ 100%","cn":"新会员首存 100% 奖金","vn":"Thưởng chào mừng 100%"}',
  '{"lo":"ສະມາຊິກໃໝ່ຝາກຄັ້ງທຳອິດ ຮັບໂບນັດ 100% ສູງສຸດ 500 ເຄຣດິດ.","cn":"新会员首次存款可获得 100% 奖金，最高 500 积分。","vn":"Thành viên mới nạp lần đầu nhận thưởng 100%, tối đa 500 điểm."}',
  '/promotions/welcome-100.webp', 'PERCENT', '100', '500', NULL, 1, '10', '5', '3000', 1, '["askmebet","betflix","gclub","gclub_live","alphabet"]', 1);
INSERT OR IGNORE INTO promotions (id, agency_id, status, title, description, image_url, bonus_kind, bonus_value, bonus_cap, set_amount, first_order_only, credit_threshold, turnover_multiple, max_withdraw_credit, withdraw_all, providers, sort_order)
VALUES ('deposit-60k-bonus-50', 'demo', 'ACTIVE',
  '{"lo":"ຝາກ 60.000 ກີບ ຮັບ 50 ເຄຣດິດ","cn":"存 60,000 基普送 50 积分","vn":"Nạp 60.000 kip nhận 50 điểm"}',
  '{"lo":"ຝາກ 60.000 ກີບພໍດີ ຮັບໂບນັດ 50 ເຄຣດິດທັນທີ. ຍອດຫຼິ້ນ 3 ເທົ່າ, ຖອນໄດ້ສູງສຸດ 1.000 ເຄຣດິດ.","cn":"存款正好 60,000 基普即送 50 积分奖金。3 倍流水，最多提取 1,000 积分。","vn":"Nạp đúng 60.000 kip nhận ngay 50 điểm thưởng. Doanh số 3 lần, rút tối đa 1.000 điểm."}',
  '/promotions/deposit-60k-bonus-50.webp', 'FIXED', '50', NULL, '60000', 0, '10', '3', '1000', 1, '["askmebet","betflix","gclub","gclub_live","alphabet"]', 2);
INSERT OR IGNORE INTO promotions (id, agency_id, status, title, description, image_url, bonus_kind, bonus_value, bonus_cap, set_amount, first_order_only, credit_threshold, turnover_multiple, max_withdraw_credit, withdraw_all, providers, sort_order)
VALUES ('daily-10', 'demo', 'ACTIVE',
  '{"lo":"ໂບນັດລາຍວັນ 10%","cn":"每日 10% 奖金","vn":"Thưởng hằng ngày 10%"}',
  '{"lo":"ຮັບໂບນັດ 10% ຂອງຍອດຝາກ ສູງສຸດ 300 ເຄຣດິດ ສຳລັບ askmebet ແລະ betflix.","cn":"存款可获 10% 奖金，最高 300 积分，适用于 askmebet 和 betflix。","vn":"Nhận thưởng 10% số nạp, tối đa 300 điểm, cho askmebet và betflix."}',
  '/promotions/daily-10.webp', 'PERCENT', '10', '300', NULL, 0, '20', '2', NULL, 0, '["askmebet","betflix"]', 3);
INSERT OR IGNORE INTO promotions (id, agency_id, status, title, description, image_url, bonus_kind, bonus_value, bonus_cap, set_amount, first_order_only, credit_threshold, turnover_multiple, max_withdraw_credit, withdraw_all, providers, sort_order)
VALUES ('songkran', 'demo', 'INACTIVE',
  '{"lo":"ໂປຣປີໃໝ່ລາວ","cn":"老挝新年优惠","vn":"Khuyến mãi Tết Lào"}',
  '{"lo":"ໂປຣໂມຊັນນີ້ໝົດເວລາແລ້ວ.","cn":"此优惠已结束。","vn":"Khuyến mãi này đã kết thúc."}',
  NULL, 'FIXED', '100', NULL, NULL, 0, '10', '1', NULL, 0, '["askmebet","betflix","gclub","gclub_live","alphabet"]', 4);
-- The demo's banners were SVG until decision 037 (raster, like an operator's uploads): a local database seeded before keeps its promotions, so point them at the WebP files.
UPDATE promotions SET image_url = replace(image_url, '.svg', '.webp')
WHERE agency_id = 'demo' AND image_url IN ('/promotions/welcome-100.svg', '/promotions/deposit-60k-bonus-50.svg', '/promotions/daily-10.svg');
