module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x?xf32>) -> (tensor<1x16x?xf32> {jax.result_info = "result[0]"}) {
    %c = stablehlo.constant dense<1600> : tensor<i64>
    %c_0 = stablehlo.constant dense<-1> : tensor<i64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %c_2 = stablehlo.constant dense<-60> : tensor<i64>
    %c_3 = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<1x?xf32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2 = stablehlo.compare GE, %1, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 's76'. Using the following polymorphic shapes specifications: args[0][0][0].shape = (1, s76). Obtained dimension variables: 's76' = {0} from specification 's76' for dimension args[0][0][0].shape[1] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()
    %3 = stablehlo.convert %1 : tensor<i64>
    %4 = stablehlo.add %3, %c_2 : tensor<i64>
    %5 = stablehlo.compare GE, %4, %c_1, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %6 = stablehlo.convert %1 : tensor<i64>
    %7 = stablehlo.add %6, %c_2 : tensor<i64>
    stablehlo.custom_call @shape_assertion(%5, %7, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint s76 >= 60. Expected 's76 - 60' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[0][0][0].shape = (1, s76). Obtained dimension variables: 's76' = {1} from specification 's76' for dimension args[0][0][0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i64>, tensor<i64>) -> ()
    %8 = stablehlo.convert %1 : tensor<i64>
    %9 = stablehlo.multiply %8, %c_0 : tensor<i64>
    %10 = stablehlo.add %9, %c : tensor<i64>
    %11 = stablehlo.compare GE, %10, %c_1, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %12 = stablehlo.convert %1 : tensor<i64>
    %13 = stablehlo.multiply %12, %c_0 : tensor<i64>
    %14 = stablehlo.add %13, %c : tensor<i64>
    stablehlo.custom_call @shape_assertion(%11, %14, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint s76 <= 1600. Expected '- s76 + 1600' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[0][0][0].shape = (1, s76). Obtained dimension variables: 's76' = {1} from specification 's76' for dimension args[0][0][0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i64>, tensor<i64>) -> ()
    %15 = call @_wrapped_jax_export_main(%1, %arg0) : (tensor<i64>, tensor<1x?xf32>) -> tensor<1x16x?xf32>
    return %15 : tensor<1x16x?xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<1x?xf32>) -> (tensor<1x16x?xf32> {jax.result_info = "result[0]"}) {
    %cst = stablehlo.constant dense<1.12837911> : tensor<f32>
    %cst_0 = stablehlo.constant dense<-0.37612626> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.112835854> : tensor<f32>
    %cst_2 = stablehlo.constant dense<-0.0268538129> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.00518832775> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-8.0101937E-4> : tensor<f32>
    %cst_5 = stablehlo.constant dense<7.85386146E-5> : tensor<f32>
    %cst_6 = stablehlo.constant dense<-88.7228394> : tensor<f32>
    %cst_7 = stablehlo.constant dense<0.564189494> : tensor<f32>
    %cst_8 = stablehlo.constant dense<-0.282076746> : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.42184633> : tensor<f32>
    %cst_10 = stablehlo.constant dense<-1.01526523> : tensor<f32>
    %cst_11 = stablehlo.constant dense<2.92101908> : tensor<f32>
    %cst_12 = stablehlo.constant dense<-7.49551868> : tensor<f32>
    %cst_13 = stablehlo.constant dense<1.297720e+01> : tensor<f32>
    %cst_14 = stablehlo.constant dense<-10.477664> : tensor<f32>
    %cst_15 = stablehlo.constant dense<0.563825965> : tensor<f32>
    %cst_16 = stablehlo.constant dense<-0.274112701> : tensor<f32>
    %cst_17 = stablehlo.constant dense<3.404880e-01> : tensor<f32>
    %cst_18 = stablehlo.constant dense<-0.494451523> : tensor<f32>
    %cst_19 = stablehlo.constant dense<0.621000468> : tensor<f32>
    %cst_20 = stablehlo.constant dense<-0.582473278> : tensor<f32>
    %cst_21 = stablehlo.constant dense<0.368742466> : tensor<f32>
    %cst_22 = stablehlo.constant dense<-0.138703942> : tensor<f32>
    %cst_23 = stablehlo.constant dense<2.326820e-02> : tensor<f32>
    %cst_24 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<2> : tensor<i64>
    %c_26 = stablehlo.constant dense<-2> : tensor<i64>
    %cst_27 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c_29 = stablehlo.constant dense<0> : tensor<i64>
    %c_30 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_31 = stablehlo.constant dense<5> : tensor<i64>
    %c_32 = stablehlo.constant dense<-10> : tensor<i64>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_34 = stablehlo.constant dense<"0xBD281BBBADB52D3E134285BE4B4F6EBE7270F9BDFFAAAD3DA34ECDBB2A60803E12E5E5BC495FAB3D3EB9C3BDE49A7EBDDDAD9ABE577556BE257C05BEF1EC3F3C2F04003E374C423E6D875BBEA7020DBE5F3BEB3D6C72863E854885BDF550723E9AC650BDC60E093DBA9A923EA53296BEF0DA4BBE63F5A3BDA872FCBDA1E38B3E49E451BE501015BE593B62BE26A397BE75063DBE242D8B3E427E103E01F21C3E8D3D883C080426BEC1235B3D582C97BEBAFA69BE00F026BEFF4E4C3E65DC3D3E809C0FBE11F23ABCCC194F3E6EF5A03E6D84003E49FB2E3D721D593E12AA3EBE9A5D713DAA0E7BBEE96E60BE564727BEC184123EFA39023E5FD03FBEACA7C33D40C4313E457C23BD4CD2453C590F963D7DE3483EB5769B3E8B8A79BEA456EDBDD986FE3D3726863EE1E48C3E75DC8E3E80E3803DFDCA8CBE5F4FEE3CF0944ABE33E496BEC6DA8F3EB437763E2582A1BE2A70723D76335ABDA42655BDC53A14BE450DF93D4FCC3FBECC6AED3DCAC1233EC2CF673E6228F23D253FA0BE2A0F52BED3AF213EFF8C873DCA9A7CBED4753ABEBF50983E9F315A3E45310DBEEFFFA2BDDD3B9ABE3140BABB7CDA73BE52C779BED4BC8EBC6D7A423DEB9C04BE5925403E320E45BE3AE9923E73E95D3EE78888BEA22FA1BDA2C8693C2CFB3C3D2C9A993D6B26FE3D742C9B3CEFFF1DBE0C3A193E874F9BBEBBED3FBE4B1FA2BD57BC1DBE6C90E2BD2DB484BEFCC289BDA06F8A3DB2F452BEDBF184BC0ACE673E6B2705BD5BFE0F3C9C7BDFBCB411833D51E54D3E095E993E5DA44D3EDEB7993E1B5ABBBC2C7291BEAE8319BE257D5C3E4D5806BBC2F320BE1C2578BEC38597BEF7A688BE345D83BD5495313EA3112F3E5B269CBECBFD493EDA637DBEA5EA88BD8D4C03BE"> : tensor<16x1x10xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<16xf32>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<16xf32>
    %cst_37 = stablehlo.constant dense<"0x39C0E3BC8228E8BC3CA104BE313CFFBDFF05B9BCB0A8F43A014986BD03B55E3DB70705BE7B981FBCCBFA013E022671BD2277053E941B563D9E6205BE0707BB3DA87188BC98F583BD5361EC3D2AE0EEBDF0C17D3C738FF7BC1518D33D3808253DFB098E3D39CA503D952B0EBD00ABF8BCE999F3BDC22BA03DDCB3EA3D5742CA3D1E83D0BD28F1D23B8161D0BD97B9A2BDEB3FACBDBC0A4A3D6727B0BD2B604EBBB7F7C63B7F8DBE3DD673DFBD70EFCABD3EA5ABBD14E7CE3DA38454BD8C56F93DE8C8553D6BB9953CA3D48CBAC6BDE9BC645A943CB8FF06BD2EEE84BA22DE963CF238E7BD5CEF9ABD92B2EE3D5AE5EFBD28CF29BC0D36123ED590553D2FE9853B1E1600BE746F923D758DD2BD8CD227BD085C46BDBA19AFBCEDEFCE3ADCD0F33D719C933C8862043E01D3B43D72E2BABD4D94843DF9F5D0BD79917ABD26E32D3D3636433D19C5DD3D9D513EBDE5497239FE2E983D16F00EBE2AB7D53DE770F4BD775F023BB407C9BCB0AF9BBDE2479C3C9F70F43D3ED22CBD7A7FAFBDB4A65ABD4E7E12BEFE6E853DB2F78DBD9C44C5BD294CAABD7CF5A93D338B9C3DCCE1E23DBF71563D6F7045BD2C3625BD00A92E3D07FFF23D96BE203D04DD8BBDDAF48ABDEDBD0BBE4275FF3C2EE3A5BDC2C603BE939A013ED6F7BFBD5F8386BC7C60293DC8AD963BF5E7C6BD4EF1EEBDC79EEB3DEB8AC03C623DF53D4C3246BDA4242E3DE53107BD4655D2BB1609B4BD57F2473D5EEB3A3DCA2143BBB2F604BDFD37B6BD466CCC3DE30DDCBD6C32723D9ACB46BD819E8EBD2B6AD43CA08D99BD8637083D0E34E83C7C7BDBBDBFDEC43CEBCF7B3D96046A3D34D794BCFB54F2BD1946B6BCA3544D3DC0B757BD2F69603D5BDCC43D89599ABD7492BA3A9F76743D9A59393C9B89453C7DA4933C4C63E8BDFBD8393C47B2CC3DA52F053EBBBDAD3D6E729E3C0B0D8A3D15CE8FBD8AF6F4BD0F32FEBDC972133E56A5BB3DBC54CCBD254E673DE53ADF3DA7BE133EAD3C013E1205E53D238A07BDA37A4FBD6CB4F23D6CA6A53D4CE3B1BD51E0043EC3D28E3DD524A13DF546B9BDF99D293D3E414FBDBBF8E63D9FC3D4BC062A663DBE05D23C268A7B3D87E848BDB220903D6878CEBDE886053DB800C8BDD9CF11BECE62EDBDB75EE93D94EE9F3D7BAB0A3E69D0EC3D5DFE03BE9ABAC9BDB20EBFBC6FF9BFBD1344CD3D7A7ADFBDAD3990BD38CA0EBED6D3A7BD8820F33D3807F23DA19AD33D4F3EE43D5A6C033EDA6217BDEB10823D56AE033E0F95433DFBC0133E8951993DE5C2B73DEEEA4EBDAFD68D3DF6DD873CBE300DBD6FA2A6BD31DEA5BD0A76E3BD8E72C63D5427D23DDA9286BCBF0FABBD3379E43DFA08BD3D7EC92F3C95908BBD39D6073EB9C4713DE967E0BD5C750D3E3279E03D4B7D57BDBD2CA63D65F5A7BD154DB9BC45FFFA3DD86CC33B590ED1BDCA9945BDED7A20BD1F1FE4BCBD50623CFDB0083E303AFD3B6F84B6BD3A6AF23BEEBC8D3D93A1923DE61407BE7C95D3BC0EADDBBD65427CBD0302553DB7EAD1BD75C45B3DD2E6FA3DE71A1B3C1704C5BD09D253BD2C19013D0058E1BDD9DB923D442F06BEAD140EBEF19C0FBE4ADEEFBCFEC5C63D24E40BBEA2B3F53D067F6CBDB1272D3D9DAFD73B8D4605BE0527F53D6A2A9F3D0AEA123EA857953D5C1EC3BDABB4F63D4B31FE3B122E8C3DFB05EDBDF50B2ABD861F11BE444566BD5815FF3CAF18E8BD9D743C3D90AE9E3D9EB8A43C84C8C5BDE52FE5BDA76536BDEBC1813D81CA113E02FBA93D942685BC6B494F3DB30011BEA679FCBD4DEE893D296FA7BDA7368E3D07ADD0BD626A92BD377CF3BD02429A3DD8F670BC257FE33DD0F0B63DE691A33D5616983BC0C936BD0B8C00BDB8249D3C8C88923DC218CFBDE517F83D5B9080BC13B3F7BD41F09FBD0CC7023E2C2B073EDAE708BE107DD03DF324943D1BF9AE3DA33CFA3DC5509FBD51B03A3D00F1713D99B22EBD63D9453D1C192ABD97C2B63D740824BD39665CBDF1D5143D7FB2513D646C90BDF70B513C0D50AB3DE14A6BBC9BEC333D63970EBDBC374F3D2322D6BDC2D2ADBDA30B96BDD3D4073E95151FBD859ECEB9EF378FBD878C133E7D5A103EA9F0DEBD00A3EFBDB410E0BD907A36BA6EB316BD637CC1BDA30C54BDF664DF3C33739ABD4600033DB59207BD113D8FBD4972A23CF10FF33DEED9C7BD5E9EDB3B98045ABDE909113E923A0CBE15B10DBE3CA4113E7706BBBD3DB2E23C55194CBC6A15F9BC710B04BD9ED6BB3D2610E23BE0E60FBE2F83AEBDE38A49BDA0C0943D7D4BBFBD775D0B3ED7AD03BD0451D4BC539FE73D9092943D0BB5FA3D76FDAA3D485833BDE91FC4BD48F32FBC05A7F43DB16B46BD1B1109BE395A723D75E10F3E7F4E28BD3BC4F4BD9F1006BEF127143D621033BCA24695BDE000EF3C1684603D5419EB3D4D80E53DEFFCB0BCA05302BE988E05BE3A000A3E4AAC823D0DDB803D21C3FFBDDEDD083ED6040C3EBB71053ED65DF9BD7B135FBD264ECBBD8DF60B3E99077EBD84F586BDD3DE9A3D6DBE88BD589791BDDBDA4EBC574E63BCC544E6BD616FF63DA56582BDB5B5513D338E003EDF13953DEA67A73C2484FB3D87F29E3C49C388BDFFD10B3E56ED0B3D0E3510BEC24F28BDFA5AC9BDE795013E4B45C3BC93B906BE32A914BC88A4B93D8398193D32F13A3D0AA15B3CB4695C3D760C10BDA02E6BBDC7260ABE5CB0DEBD801D803DDB07AFBDFDA2A93C47B53C3D5C70273C83A7BFBDD0580D3EA7E4ABBD4822F33DA727EBBDC0360EBD8BCCA03D3C8E71BDCA51F83DDE6BCBBD403DF8BD0F4B85BD3A23BF3CD916083E0D1F8DBDA46E533D3C3814BDE03500BDAF5BD93DA316E5BD162D7B3C7AFE0A3E5F7AA2BC8884E53DED1036BD12F3ED3D19F90EBEEC69AABCCAAFCFBCE9993F3D54F2673D20F8E23DBB29B0BC098EBBBBB76ECA3DF3F61FBD6391013EF8D0C4BDC5E57FBCBC08FEBBB1E6833DD118CA3DBF6ABBBCD1E6F4BD1A78923D43D9303DC07C6D3D1F59B6BDBE3FBE3DB8FD0B3E02334D3CCD0D0ABEB382CF3DEB2CDBBDE4E6073D61D3AB3C695A8ABD04DB4D3DDA3204BE26A7063DE465BBBDA7B77FBCAC17983C6ED6FB3DD1098DBDC95FBD3DDD3496BCE6638CBDA5B400BE5A9C07BE3D58103E597213BD953DEC3B8E48203D5DEEC83D304AFC3D48BDEF3DED01DBBD4771BDBC6CEBAEBDBCE4A8BD073D0C3DD6BB0A3E1ACFECBD84E6B23DAF4299BDBF4DE6BC2EA4EA3DA1B605BDC154573CE8A2CEBD30A1FB3DB3D998BC9333D8BD861C2D3DDA2DD2BD3C90EABD3210103C015EEA3D524D27BD76218B3DAA04FE3DE90FC43DDF0F9BBDB19D81BC360B3ABD90B3EDBD12237A381D6CDE3DE80CF93DD6A35C3CD246063D38F27FBD4922DF3D910176BD7857CDBD7E15B63C292EB13DB94105BEA09B053EE8AC543D7D1ACFBD60B3FEBCD23A003E11CCE2BDD6CB2CBD75E7413DA17C01BE9A0CA23D28E0993DB755B73D0876BCBDEA35133EE738AFBD6F8E133E06D80DBED5AF03BEF88EB53DAC27773CDB6C083C5DB1A3BD26FF77BD87DC2CBD57FB0FBE3DCBF53BCE1ED13CBB2200B927EB3E3DE43D0C3E42311D3DA96C58BD254F73BDEF20BDBDF5EACCBD6F6DBEBCD320D1BCBA80833D19B47CBDF3A7EB3D446BCFBDBD14D739A3DC043EC6F8123E5B3BABBD3F9FD23C7BAB8B3C18988ABD45424CBD7521203D618DCDBDD417C33C6AD47F3D16FA68BD518AF53D5BA11BBC761E863D725E123E92B634BD1DA2A03D361A29BDF9B7ACBC8B62C8BC38116BBAD5565FBD34920A3D1537B23B4361BB3DA753EFBC2C256D3C54EC5BBDDA8DF7BDF23D6F3D974C973CC6C46CBDD1E347BDF89C1A3DE0CCD5BC6E2BC13D81F3053C09525F3D13CB803DED0F11BD5BCB7F3DB222DA3DA1A6D93BD063E73CD0DAAB3B87AACC3DCD9A79BD42229DBD6ACF803D46A200BEEBA7173B02F287BDAE1BC33DF09B09BEE23BB33D843A123EEA3FEF3C7E8F1DBC117D113E4EA77CBD81803DBC387281BDC938A3BC027E003DBCEC9D3C0A54DFBC32C713BE752DF23B021A8CBBE1E0B13C9281E23D24AA0F3E5360AFBD1C7513BC84E16CBD843808BE3419D7BD8CB80A3ED45AAC3D9EC89E3D9047A43DC4D9EABD2C5A783CA98F093ED9F8A4BDC87B033E51641B3D46F8CF3D00447DBD4447883D3D0603BEE82716BC9B32453DB34C313DFF5CF73D053D113EAF76063E3D77C63DD6D3CF3D069198BCEC66E5BDD3785BBD39BE84BC75BD9FBD931A973D97874F3DDFC8BE3CF3CF0E3D33D6013E0456573DF59C01BEA192D6BD7D49823D6C23A13CCC29903DCB9C13BED16608BE9345B53DD714BD3DC1B705BED169603DF5D1E6BD"> : tensor<16x16x3xf32>
    %cst_38 = stablehlo.constant dense<"0xDADCDF3DD783393DF524123E33BB11BEFF480EBEA7DBC73DC438033E391CB53DA386C43D6CFAF8BD34F6D53DE88B0BBE9913043D66A1C1BD19D36ABD595ED13C5D7368BDBB15BBBC0C170CBEB55B0BBEFA02653DBB3E7ABD8DD7B3BD984769BD0DADF1BD2C4EECBD80E1B03DF23C963D69809D3CE679A1BDEDB1443D0E7BD43B7942D3BD7C71FE3C7594063EF06011BE0BF912BE257F973C8D98DE3D21DFB3BD8325023D07CECF3D5847363D10E3FF3C2F77133ED793C03D5C41A6BD49684C3CFD03973D0259023E800D13BE1F12A03D68A52BBD04BB10BE863B033D35EEA0BDF88FA73C68EBBFBD3973DEBD71A848BCFD9946BD52E3AC3D12E44B3C58BCE63D7896DD3CF51B3EBDD938C83DE239013CDDEDDD3C3B253EBD42CA073AA958E3BC1E0D49BCF188E6BDD8B168BA255DF5BDA05FFEBCD850AB3D418CCDBD8040C7BDD95B10BDE31122BDF02AC83C914CC43C41E6953DA9A2CBBD7CE326BC0F54A53D3FB0FF3DDF802CBCC40AABBD26F3293DE256A83D9BADB8BD6389ABBDFAA7823DA3B125BC36990BBEC270AABDF4C06F3DDF8548BDB508CC3DACAFE93D6C01AC3C80FF3ABC41AA3BBDAD28EFBB5439D73C03CCE1BDBC4B0DBD15E2F5BD906DB53D3D40BCBDF705073ED76618BD0658A9BD07068E3DEA45B03C3BB1CC3D97CF763D18620EBE5DF7BA3D30AADEBCEBA582BD5BB9BB3DAC97D73D4DE801BEE6D555BC5CC0F23D6EF7643D6809F93D139B4ABD3D11A3BD3131FE3DB16D763D13E30D3EECF176BD0FCCBDBD16988ABCC62A0BBE03BD673D9908DA3D58EC0D3D3DA969BCE08F923D76A2BBBD0296103E35F712BEFE950DBEFFB30BBD4276F13DB7C76C3CE60C633DE4ADD8BDCB9A573D7F2084BC36F86C3D85C4D03D307E803D7A2949BCD9AB11BC8565B9BD37D755BD2418C03D64126DBDD894B73DAD6E6ABDFCB009BD9850493BEBA107BEDCE6BCBA4E5D6EBC8A7254BC915EECBC050CE93DC626DA3DE958C8BDCF50893DB9DDE7BD47A7FBBDA1B8343DBC040B3B9DE689BD268E0EBEA0E064BD7676453D31CE08BE8F950FBE0A04963C31F4D4BD737C01BEA6C863BD9B5EBEBCE34E06BEEE61C5BD7D0E1B3C6F5F0BBE8531A6BC33DFBEBD5BECCCBDD05C683DD885E3BDB004E0BDBE93A83D4A12DD3CD99A063EE1061EBDE7C78EBD39DB5ABCA56E3F3AB170E13DE73813BE9C6028BCC2C2823DA3C8A2BD473596BD06DB8E3D129F0DBEFF160C3D24DAE4BDE2EE923DB8C0FCBD03BDB53DF4E90BBE6E79F8BD99660B3B98EEE83D4527FDBD53DB83BDC7CF013EA549C6BC85ED743D582F0EBE57EC39BDEC1D96BD3236F93DD65F753DCEB1D7BD0EA3BE3CA670D9BAB3E872BDE9CFA8BD692F44BD9C00E93D68E7D3BD3192D2BD086636BDA68E243BFAEE203D85ED8D3B90510EBD383DB3BDDD29D4BC01FE6DBD92D3EE3D1EDF0FBEA18DBCBDFE7FF0BD1418D8BC165BE63DD08D013E66AB00BEC7EBCCBB5882AD3D1B4D823D3C21F23D303183BB1E9DC6BDF58CC33DBFBB4ABD2F0F993DE4B111BD88517B3DC9EF043E276F093E568206BE2989C3BDC07174BDAD81BCBDD2D00D3ED5DB50BCEF15C4BD558A83BDE347A3BDBF34713D91EB00BE8CCF09BE78B211BE5A877E3D9529923DD297B7BD499B123DB935DA3D66CEAB3C492DFABC0CB82E3C2C937DBC06D6943DD0B7C8BDB4E6953DE79BA63D3C19B3BD0161F13D262B113E151269BDFB9725BDC850933DEA94E7BD22CC693D6BEE093DDC53BA3DAC6100BE2F95F5BD99C3843D82F5543D9D9109BE94D8A4BD403C07BEEAC6D3BD496085BD869FF43D465CEBBCB6C7A93D4B5D0C3E49B7863D475004BE1AC1943DB481613DA91CE53DEFCB11BE00CDB53DACF6F13D6C8209BE4E6C773C3F59FC3DA6FED6BD7EFC413DD49E823D0CF31A3DA4F4123EB308F23D419DFD3D4F6293BC1EEDF73DFEBC09BE28849FBD5AE5FCBC399F2FBD0C86083E036D8B3D3350BE3D7912C93D16D1DCBDC4F288BC53A9AC3CB7C4193D4602983DC23E6BBDE74432BDF157F73DADAB1EBD9B56CDBD4A6EC83D5F2BC83D036239BD5D63ECBCAA1EDABD43DBF6BDAF525E3D218F7CBD1754EB3D88B1ECBD6E70A3BC483E4C3BABEC973DA93DEF3D142FC83D981F823D1BAE87BDBC1AD3BDAB3904BEE29CEA3B94590F3E2C97E0BC861CC7BB2CD0D6BD9581353D5868BB3D53B811BE1024D0BDA7F4DA3D0EFA0B3D0F7013BCBC5DD33CC1C6B3BCCA9DCEBD3C1C0ABEB06BC23DDEA18CBC0E915BBD739918BD973AA1BD071B2FBD0BC0FDBD7E36DD3D306A713D401495BD63C949BD659E843D52ED5ABDC0E51B3DA3C8223D8E14BABD2119143DA1B0103C6C16013E0FE955BD0AFB17BD28B1FE3DF063F1BDE7DA2A3C41680E3E008A84BDE0B10D3E8326033E7981093EBBA861BCD1B4053ED3CC80BD845F4ABD179D5F3D11C8F93C7BF5A23D72750C3E620BB9BD73E29C3DFBCB453D6DF39B3DBC2A8C3D13275DBDC3A1E9BDAE98EC3D4590A8BDBCFCBC3D63CD0CBE708FCCBC3684C83ADC95CC3C58273F3CFD4A3A3DC2A783BC03CA103D2043123E4F45BFBDA71C01BC5EAD61BD81AF013E5A0CFD3D5DF980BB77EE4CBDAFA4B6BD1184D33DBED922BC76330B3E4392A83D195F013EB6CCE93D7518C0BD280C2D3D2C2675BDE651943DFF9E54BC0BB94C3C1E71CCBD191804BEE8A15E3D4763093D5C6A4D3CADC5C83D6EDF76BDF6DD513D95CEA2BDF7FEF43CBCF806BDD704CF3DFE3F013E875E003E80C2D43BB350AE3DA0AC13BE3266ADBD2053D33C5B04533AF711E8BD64D682BD11108ABDB16F12BE0C89613CD382C93DFBF26F3D6D738CBD9CB807BE697CEEBD6D762F3B7659CB3D276C6FBDE0D9A0BD06B19DBD52B84CBC4D5C0CBE416D02BE9C7E113E5DFA8CBDAF43D5BCD02D1EBD3DD801BE8C73D0BC6EFA343D601070BDB693C9BBABFE34BA252313BEDED1D63DC3C7EE3D428BC93DBB2642BDB0789A3D8C7A0ABEB54112BDFA7BF0BCD0C850BD8D4E783DA8B186BDD80B89BC83B62ABD4CCC0ABEB543C3BC4D84FABD165EAC3D31FD9D3D9D750A3E638746BD6083F03BAD9FE73CD289133E1C7A073E85FC98BD9887FBBD403605BEC5598EBD108AF83D7A8E463D5E9B0E3E7B1BDB3D3A23093B2A35B7BD1354103EDF1FED3D73F57F3D307AA1BDC5DEE83DA63C573C8476C33D00C0763DC4F79C3D42B101BE0FE8A3BD614BB13DD056F6BC9F9500BE2569063EFA8F4CBB5D75EE3D6D0CE7BD7F8C4B3D65B05EBDF1C978BD9D9DF6BC2ED55ABD96FAA13D50A8E0BCB621E03D45E7063D6FB3B6BC85BDAABD875607BEDA772CBD78DE08BE0711DBBC189B1A3B036618BC923491BDE32ACD3D547AA63DE8A811BDD69669BDC8D7B93D4F97003E395507BEA678FFBC07765BBC860D56BDF85BFC3DEBA7AEBC79A0FA3D6E0D3B3A044280BC096DACBD7C9444BD1A813E3DA6C1823D2548A8BBEED40C3EC698CCBD34AD623D121F053ED099CDBCA3AEEA3D49EE1B3B6D5CDDBD3F2CA2BD690E5C3D13D87FBD16310E3D7E79113E43D2483DD8525DBC68C6133D5D4FAABDB261F8BD7434DEBDA00AF8BD7FA7F23C7450E63C713E7BBD829210BE3621A03D63BAA7BDB666C5BCA9DBF7BD5DC4A6BDB2A0763DF7B509BE9390A8BD6D9FDD3D8C9997BDBF0876BDCDFE25BD78B77C3D24E8C1BD3A1C6D3C4D73713D9DAB2BBC6BCDD53C1280E1BD61A4853D8CF35C3D085094BCF66CF4BDDC776C3DB9E4C03D3FD0CEBC39548B3DDA225B3DA7766CBDC52A24BCA120133E9BA1323A7455EBBD7B762CBC7C0F933DDDFB40BD77CD9ABDF882F33DAC609C3D36E2C8BC07A2F13B4A1C7ABC0142093DED16A83B42E1B2BD1C12DB3CE767773BF5E4183C3D4D61BD037B173DDA09EFBDB1B9303D7C2FA03DDB2082BCED9FE5BD708B09BAB2D856393976FFBD2D14D1BD1DB5083EC60EDD3D03D3A33D22C8CC3DB797633DBB5CA63DD5C8C33D431C0ABD914F96BC66C7D23D9B055AB85858C0BDE235E5BDDC52A53D9FDAF43DB691E53DADC6C43C9B0CCC3D9EB307BEA3F8D4BD22380EBEDE29EE3DC52FABBA6A1D88BD6E0C483DE04E5DBD5F95BDBD0507643D9B7FD83CDFAFD3BDE2B3C2BD75998A3D19C5E03D7C83403C257A94BD41BD8E3D2638CE3CB66501BE7290BFBDC566013D6AE9B63DECEE3DBD22EF8E3D2812B7BDB76F0D3E62A1D23D7E79DD3C0083833D27D54D3D486FAEBD04F8A4BAC5A61D3D997105BDD6BB0D3EA8FD63BD47FF03BECDBA8CBD282C09BE6597F33DF7B284BD85FACFBD82A27FBC162EC7BD536A9ABD9AB3963D0CF0DDBD7D678B3DBA90D73DB1BDA9B93A42833DB295A5BD3584E63DA7940F3E"> : tensor<16x16x3xf32>
    %c_39 = stablehlo.constant dense<1> : tensor<i64>
    %c_40 = stablehlo.constant dense<1> : tensor<1xi32>
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %c_40, %c_40, %1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [0, 2] : (tensor<1x?xf32>, tensor<3xi32>) -> tensor<1x1x?xf32>
    %4 = stablehlo.convolution(%3, %cst_34) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [5]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x?xf32>, tensor<16x1x10xf32>) -> tensor<1x16x?xf32>
    %5 = stablehlo.convert %arg0 : tensor<i64>
    %6 = stablehlo.add %5, %c_32 : tensor<i64>
    %7:2 = call @divmod(%arg0, %6, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %8 = stablehlo.add %7#0, %c_39 : tensor<i64>
    %9 = stablehlo.convert %8 : (tensor<i64>) -> tensor<i32>
    %10 = stablehlo.reshape %9 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.concatenate %c_40, %c_30, %10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %12 = stablehlo.dynamic_broadcast_in_dim %cst_33, %11, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %13 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<1x16x1xf32>
    %14 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<1x16x1xf32>
    %15:5 = stablehlo.while(%iterArg = %4, %iterArg_41 = %c_29, %iterArg_42 = %12, %iterArg_43 = %13, %iterArg_44 = %14) : tensor<1x16x?xf32>, tensor<i64>, tensor<1x16x?xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>
    cond {
      %995 = stablehlo.compare LT, %iterArg_41, %c_39, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %995 : tensor<i1>
    } do {
      %995 = func.call @dynamic_index_in_dim(%arg0, %iterArg, %iterArg_41) : (tensor<i64>, tensor<1x16x?xf32>, tensor<i64>) -> tensor<16x?xf32>
      %996:3 = func.call @closed_call(%arg0, %995) : (tensor<i64>, tensor<16x?xf32>) -> (tensor<16x?xf32>, tensor<16x1xf32>, tensor<16x1xf32>)
      %997 = func.call @dynamic_update_index_in_dim(%arg0, %iterArg_42, %996#0, %iterArg_41) : (tensor<i64>, tensor<1x16x?xf32>, tensor<16x?xf32>, tensor<i64>) -> tensor<1x16x?xf32>
      %998 = func.call @dynamic_update_index_in_dim_1(%arg0, %iterArg_43, %996#1, %iterArg_41) : (tensor<i64>, tensor<1x16x1xf32>, tensor<16x1xf32>, tensor<i64>) -> tensor<1x16x1xf32>
      %999 = func.call @dynamic_update_index_in_dim_1(%arg0, %iterArg_44, %996#2, %iterArg_41) : (tensor<i64>, tensor<1x16x1xf32>, tensor<16x1xf32>, tensor<i64>) -> tensor<1x16x1xf32>
      %1000 = stablehlo.add %iterArg_41, %c_39 : tensor<i64>
      stablehlo.return %iterArg, %1000, %997, %998, %999 : tensor<1x16x?xf32>, tensor<i64>, tensor<1x16x?xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>
    }
    %16 = stablehlo.reshape %cst_35 : (tensor<16xf32>) -> tensor<1x16x1xf32>
    %17 = stablehlo.reshape %cst_36 : (tensor<16xf32>) -> tensor<1x16x1xf32>
    %18 = stablehlo.convert %arg0 : tensor<i64>
    %19 = stablehlo.add %18, %c_32 : tensor<i64>
    %20:2 = call @divmod(%arg0, %19, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %21 = stablehlo.add %20#0, %c_39 : tensor<i64>
    %22 = stablehlo.convert %21 : (tensor<i64>) -> tensor<i32>
    %23 = stablehlo.reshape %22 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %c_40, %c_30, %23, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %17, %24, dims = [0, 1, 2] : (tensor<1x16x1xf32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %26 = stablehlo.multiply %15#2, %25 : tensor<1x16x?xf32>
    %27 = stablehlo.convert %arg0 : tensor<i64>
    %28 = stablehlo.add %27, %c_32 : tensor<i64>
    %29:2 = call @divmod(%arg0, %28, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %30 = stablehlo.add %29#0, %c_39 : tensor<i64>
    %31 = stablehlo.convert %30 : (tensor<i64>) -> tensor<i32>
    %32 = stablehlo.reshape %31 : (tensor<i32>) -> tensor<1xi32>
    %33 = stablehlo.concatenate %c_40, %c_30, %32, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %34 = stablehlo.dynamic_broadcast_in_dim %16, %33, dims = [0, 1, 2] : (tensor<1x16x1xf32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %35 = stablehlo.add %34, %26 : tensor<1x16x?xf32>
    %36 = stablehlo.convert %arg0 : tensor<i64>
    %37 = stablehlo.add %36, %c_32 : tensor<i64>
    %38:2 = call @divmod(%arg0, %37, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %39 = stablehlo.add %38#0, %c_39 : tensor<i64>
    %40 = stablehlo.convert %39 : (tensor<i64>) -> tensor<i32>
    %41 = stablehlo.reshape %40 : (tensor<i32>) -> tensor<1xi32>
    %42 = stablehlo.concatenate %c_40, %c_30, %41, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %43 = stablehlo.dynamic_broadcast_in_dim %cst_28, %42, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %44 = stablehlo.multiply %43, %35 : tensor<1x16x?xf32>
    %45 = stablehlo.negate %35 : tensor<1x16x?xf32>
    %46 = stablehlo.convert %arg0 : tensor<i64>
    %47 = stablehlo.add %46, %c_32 : tensor<i64>
    %48:2 = call @divmod(%arg0, %47, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %49 = stablehlo.add %48#0, %c_39 : tensor<i64>
    %50 = stablehlo.convert %49 : (tensor<i64>) -> tensor<i32>
    %51 = stablehlo.reshape %50 : (tensor<i32>) -> tensor<1xi32>
    %52 = stablehlo.concatenate %c_40, %c_30, %51, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %53 = stablehlo.dynamic_broadcast_in_dim %cst_27, %52, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %54 = stablehlo.multiply %45, %53 : tensor<1x16x?xf32>
    %55 = stablehlo.multiply %54, %54 : tensor<1x16x?xf32>
    %56 = stablehlo.negate %55 : tensor<1x16x?xf32>
    %57 = stablehlo.abs %54 : tensor<1x16x?xf32>
    %58 = stablehlo.get_dimension_size %54, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %59 = stablehlo.reshape %58 : (tensor<i32>) -> tensor<1xi32>
    %60 = stablehlo.get_dimension_size %54, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %61 = stablehlo.reshape %60 : (tensor<i32>) -> tensor<1xi32>
    %62 = stablehlo.get_dimension_size %54, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %63 = stablehlo.reshape %62 : (tensor<i32>) -> tensor<1xi32>
    %64 = stablehlo.concatenate %59, %61, %63, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %65 = stablehlo.dynamic_broadcast_in_dim %cst_25, %64, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %66 = stablehlo.divide %65, %55 : tensor<1x16x?xf32>
    %67 = stablehlo.exponential %56 : tensor<1x16x?xf32>
    %68 = stablehlo.divide %65, %57 : tensor<1x16x?xf32>
    %69 = stablehlo.multiply %67, %68 : tensor<1x16x?xf32>
    %70 = stablehlo.get_dimension_size %54, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %71 = stablehlo.reshape %70 : (tensor<i32>) -> tensor<1xi32>
    %72 = stablehlo.get_dimension_size %54, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %73 = stablehlo.reshape %72 : (tensor<i32>) -> tensor<1xi32>
    %74 = stablehlo.get_dimension_size %54, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %75 = stablehlo.reshape %74 : (tensor<i32>) -> tensor<1xi32>
    %76 = stablehlo.concatenate %71, %73, %75, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %77 = stablehlo.dynamic_broadcast_in_dim %cst_24, %76, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %78 = stablehlo.compare LT, %57, %77 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %79 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %80 = stablehlo.reshape %79 : (tensor<i32>) -> tensor<1xi32>
    %81 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %82 = stablehlo.reshape %81 : (tensor<i32>) -> tensor<1xi32>
    %83 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %84 = stablehlo.reshape %83 : (tensor<i32>) -> tensor<1xi32>
    %85 = stablehlo.concatenate %80, %82, %84, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %86 = stablehlo.dynamic_broadcast_in_dim %cst_23, %85, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %87 = stablehlo.multiply %86, %66 : tensor<1x16x?xf32>
    %88 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %89 = stablehlo.reshape %88 : (tensor<i32>) -> tensor<1xi32>
    %90 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %91 = stablehlo.reshape %90 : (tensor<i32>) -> tensor<1xi32>
    %92 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %93 = stablehlo.reshape %92 : (tensor<i32>) -> tensor<1xi32>
    %94 = stablehlo.concatenate %89, %91, %93, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %95 = stablehlo.dynamic_broadcast_in_dim %cst_22, %94, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %96 = stablehlo.add %87, %95 : tensor<1x16x?xf32>
    %97 = stablehlo.multiply %96, %66 : tensor<1x16x?xf32>
    %98 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %99 = stablehlo.reshape %98 : (tensor<i32>) -> tensor<1xi32>
    %100 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %101 = stablehlo.reshape %100 : (tensor<i32>) -> tensor<1xi32>
    %102 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %103 = stablehlo.reshape %102 : (tensor<i32>) -> tensor<1xi32>
    %104 = stablehlo.concatenate %99, %101, %103, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %105 = stablehlo.dynamic_broadcast_in_dim %cst_21, %104, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %106 = stablehlo.add %97, %105 : tensor<1x16x?xf32>
    %107 = stablehlo.multiply %106, %66 : tensor<1x16x?xf32>
    %108 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %109 = stablehlo.reshape %108 : (tensor<i32>) -> tensor<1xi32>
    %110 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %111 = stablehlo.reshape %110 : (tensor<i32>) -> tensor<1xi32>
    %112 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %113 = stablehlo.reshape %112 : (tensor<i32>) -> tensor<1xi32>
    %114 = stablehlo.concatenate %109, %111, %113, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %115 = stablehlo.dynamic_broadcast_in_dim %cst_20, %114, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %116 = stablehlo.add %107, %115 : tensor<1x16x?xf32>
    %117 = stablehlo.multiply %116, %66 : tensor<1x16x?xf32>
    %118 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %119 = stablehlo.reshape %118 : (tensor<i32>) -> tensor<1xi32>
    %120 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %121 = stablehlo.reshape %120 : (tensor<i32>) -> tensor<1xi32>
    %122 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %123 = stablehlo.reshape %122 : (tensor<i32>) -> tensor<1xi32>
    %124 = stablehlo.concatenate %119, %121, %123, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %125 = stablehlo.dynamic_broadcast_in_dim %cst_19, %124, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %126 = stablehlo.add %117, %125 : tensor<1x16x?xf32>
    %127 = stablehlo.multiply %126, %66 : tensor<1x16x?xf32>
    %128 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %129 = stablehlo.reshape %128 : (tensor<i32>) -> tensor<1xi32>
    %130 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %131 = stablehlo.reshape %130 : (tensor<i32>) -> tensor<1xi32>
    %132 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %133 = stablehlo.reshape %132 : (tensor<i32>) -> tensor<1xi32>
    %134 = stablehlo.concatenate %129, %131, %133, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %135 = stablehlo.dynamic_broadcast_in_dim %cst_18, %134, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %136 = stablehlo.add %127, %135 : tensor<1x16x?xf32>
    %137 = stablehlo.multiply %136, %66 : tensor<1x16x?xf32>
    %138 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %139 = stablehlo.reshape %138 : (tensor<i32>) -> tensor<1xi32>
    %140 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %141 = stablehlo.reshape %140 : (tensor<i32>) -> tensor<1xi32>
    %142 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %143 = stablehlo.reshape %142 : (tensor<i32>) -> tensor<1xi32>
    %144 = stablehlo.concatenate %139, %141, %143, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %145 = stablehlo.dynamic_broadcast_in_dim %cst_17, %144, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %146 = stablehlo.add %137, %145 : tensor<1x16x?xf32>
    %147 = stablehlo.multiply %146, %66 : tensor<1x16x?xf32>
    %148 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %149 = stablehlo.reshape %148 : (tensor<i32>) -> tensor<1xi32>
    %150 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %151 = stablehlo.reshape %150 : (tensor<i32>) -> tensor<1xi32>
    %152 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %153 = stablehlo.reshape %152 : (tensor<i32>) -> tensor<1xi32>
    %154 = stablehlo.concatenate %149, %151, %153, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %155 = stablehlo.dynamic_broadcast_in_dim %cst_16, %154, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %156 = stablehlo.add %147, %155 : tensor<1x16x?xf32>
    %157 = stablehlo.multiply %156, %66 : tensor<1x16x?xf32>
    %158 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %159 = stablehlo.reshape %158 : (tensor<i32>) -> tensor<1xi32>
    %160 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %161 = stablehlo.reshape %160 : (tensor<i32>) -> tensor<1xi32>
    %162 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %163 = stablehlo.reshape %162 : (tensor<i32>) -> tensor<1xi32>
    %164 = stablehlo.concatenate %159, %161, %163, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %165 = stablehlo.dynamic_broadcast_in_dim %cst_15, %164, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %166 = stablehlo.add %157, %165 : tensor<1x16x?xf32>
    %167 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %168 = stablehlo.reshape %167 : (tensor<i32>) -> tensor<1xi32>
    %169 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %170 = stablehlo.reshape %169 : (tensor<i32>) -> tensor<1xi32>
    %171 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %172 = stablehlo.reshape %171 : (tensor<i32>) -> tensor<1xi32>
    %173 = stablehlo.concatenate %168, %170, %172, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %174 = stablehlo.dynamic_broadcast_in_dim %cst_14, %173, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %175 = stablehlo.multiply %174, %66 : tensor<1x16x?xf32>
    %176 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %177 = stablehlo.reshape %176 : (tensor<i32>) -> tensor<1xi32>
    %178 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %179 = stablehlo.reshape %178 : (tensor<i32>) -> tensor<1xi32>
    %180 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %181 = stablehlo.reshape %180 : (tensor<i32>) -> tensor<1xi32>
    %182 = stablehlo.concatenate %177, %179, %181, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %183 = stablehlo.dynamic_broadcast_in_dim %cst_13, %182, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %184 = stablehlo.add %175, %183 : tensor<1x16x?xf32>
    %185 = stablehlo.multiply %184, %66 : tensor<1x16x?xf32>
    %186 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %187 = stablehlo.reshape %186 : (tensor<i32>) -> tensor<1xi32>
    %188 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %189 = stablehlo.reshape %188 : (tensor<i32>) -> tensor<1xi32>
    %190 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %191 = stablehlo.reshape %190 : (tensor<i32>) -> tensor<1xi32>
    %192 = stablehlo.concatenate %187, %189, %191, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %193 = stablehlo.dynamic_broadcast_in_dim %cst_12, %192, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %194 = stablehlo.add %185, %193 : tensor<1x16x?xf32>
    %195 = stablehlo.multiply %194, %66 : tensor<1x16x?xf32>
    %196 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %197 = stablehlo.reshape %196 : (tensor<i32>) -> tensor<1xi32>
    %198 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %199 = stablehlo.reshape %198 : (tensor<i32>) -> tensor<1xi32>
    %200 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %201 = stablehlo.reshape %200 : (tensor<i32>) -> tensor<1xi32>
    %202 = stablehlo.concatenate %197, %199, %201, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %203 = stablehlo.dynamic_broadcast_in_dim %cst_11, %202, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %204 = stablehlo.add %195, %203 : tensor<1x16x?xf32>
    %205 = stablehlo.multiply %204, %66 : tensor<1x16x?xf32>
    %206 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %207 = stablehlo.reshape %206 : (tensor<i32>) -> tensor<1xi32>
    %208 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %209 = stablehlo.reshape %208 : (tensor<i32>) -> tensor<1xi32>
    %210 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %211 = stablehlo.reshape %210 : (tensor<i32>) -> tensor<1xi32>
    %212 = stablehlo.concatenate %207, %209, %211, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %213 = stablehlo.dynamic_broadcast_in_dim %cst_10, %212, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %214 = stablehlo.add %205, %213 : tensor<1x16x?xf32>
    %215 = stablehlo.multiply %214, %66 : tensor<1x16x?xf32>
    %216 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %217 = stablehlo.reshape %216 : (tensor<i32>) -> tensor<1xi32>
    %218 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %219 = stablehlo.reshape %218 : (tensor<i32>) -> tensor<1xi32>
    %220 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %221 = stablehlo.reshape %220 : (tensor<i32>) -> tensor<1xi32>
    %222 = stablehlo.concatenate %217, %219, %221, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %223 = stablehlo.dynamic_broadcast_in_dim %cst_9, %222, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %224 = stablehlo.add %215, %223 : tensor<1x16x?xf32>
    %225 = stablehlo.multiply %224, %66 : tensor<1x16x?xf32>
    %226 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %227 = stablehlo.reshape %226 : (tensor<i32>) -> tensor<1xi32>
    %228 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %229 = stablehlo.reshape %228 : (tensor<i32>) -> tensor<1xi32>
    %230 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %231 = stablehlo.reshape %230 : (tensor<i32>) -> tensor<1xi32>
    %232 = stablehlo.concatenate %227, %229, %231, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %233 = stablehlo.dynamic_broadcast_in_dim %cst_8, %232, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %234 = stablehlo.add %225, %233 : tensor<1x16x?xf32>
    %235 = stablehlo.multiply %234, %66 : tensor<1x16x?xf32>
    %236 = stablehlo.get_dimension_size %66, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %237 = stablehlo.reshape %236 : (tensor<i32>) -> tensor<1xi32>
    %238 = stablehlo.get_dimension_size %66, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %239 = stablehlo.reshape %238 : (tensor<i32>) -> tensor<1xi32>
    %240 = stablehlo.get_dimension_size %66, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %241 = stablehlo.reshape %240 : (tensor<i32>) -> tensor<1xi32>
    %242 = stablehlo.concatenate %237, %239, %241, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %243 = stablehlo.dynamic_broadcast_in_dim %cst_7, %242, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %244 = stablehlo.add %235, %243 : tensor<1x16x?xf32>
    %245 = stablehlo.select %78, %166, %244 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %246 = stablehlo.multiply %69, %245 : tensor<1x16x?xf32>
    %247 = stablehlo.get_dimension_size %54, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %248 = stablehlo.reshape %247 : (tensor<i32>) -> tensor<1xi32>
    %249 = stablehlo.get_dimension_size %54, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %250 = stablehlo.reshape %249 : (tensor<i32>) -> tensor<1xi32>
    %251 = stablehlo.get_dimension_size %54, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %252 = stablehlo.reshape %251 : (tensor<i32>) -> tensor<1xi32>
    %253 = stablehlo.concatenate %248, %250, %252, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %254 = stablehlo.dynamic_broadcast_in_dim %cst_6, %253, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %255 = stablehlo.compare LT, %56, %254 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %256 = stablehlo.get_dimension_size %54, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %257 = stablehlo.reshape %256 : (tensor<i32>) -> tensor<1xi32>
    %258 = stablehlo.get_dimension_size %54, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %259 = stablehlo.reshape %258 : (tensor<i32>) -> tensor<1xi32>
    %260 = stablehlo.get_dimension_size %54, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %261 = stablehlo.reshape %260 : (tensor<i32>) -> tensor<1xi32>
    %262 = stablehlo.concatenate %257, %259, %261, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %263 = stablehlo.dynamic_broadcast_in_dim %cst_33, %262, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %264 = stablehlo.select %255, %263, %246 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %265 = stablehlo.compare LT, %54, %263 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %266 = stablehlo.subtract %77, %264 : tensor<1x16x?xf32>
    %267 = stablehlo.select %265, %266, %264 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %268 = stablehlo.get_dimension_size %54, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %269 = stablehlo.reshape %268 : (tensor<i32>) -> tensor<1xi32>
    %270 = stablehlo.get_dimension_size %54, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %271 = stablehlo.reshape %270 : (tensor<i32>) -> tensor<1xi32>
    %272 = stablehlo.get_dimension_size %54, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %273 = stablehlo.reshape %272 : (tensor<i32>) -> tensor<1xi32>
    %274 = stablehlo.concatenate %269, %271, %273, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %275 = stablehlo.dynamic_broadcast_in_dim %cst_25, %274, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %276 = stablehlo.multiply %54, %54 : tensor<1x16x?xf32>
    %277 = stablehlo.get_dimension_size %276, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %278 = stablehlo.reshape %277 : (tensor<i32>) -> tensor<1xi32>
    %279 = stablehlo.get_dimension_size %276, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %280 = stablehlo.reshape %279 : (tensor<i32>) -> tensor<1xi32>
    %281 = stablehlo.get_dimension_size %276, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %282 = stablehlo.reshape %281 : (tensor<i32>) -> tensor<1xi32>
    %283 = stablehlo.concatenate %278, %280, %282, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %284 = stablehlo.dynamic_broadcast_in_dim %cst_5, %283, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %285 = stablehlo.multiply %284, %276 : tensor<1x16x?xf32>
    %286 = stablehlo.get_dimension_size %276, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %287 = stablehlo.reshape %286 : (tensor<i32>) -> tensor<1xi32>
    %288 = stablehlo.get_dimension_size %276, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %289 = stablehlo.reshape %288 : (tensor<i32>) -> tensor<1xi32>
    %290 = stablehlo.get_dimension_size %276, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %291 = stablehlo.reshape %290 : (tensor<i32>) -> tensor<1xi32>
    %292 = stablehlo.concatenate %287, %289, %291, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %293 = stablehlo.dynamic_broadcast_in_dim %cst_4, %292, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %294 = stablehlo.add %285, %293 : tensor<1x16x?xf32>
    %295 = stablehlo.multiply %294, %276 : tensor<1x16x?xf32>
    %296 = stablehlo.get_dimension_size %276, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %297 = stablehlo.reshape %296 : (tensor<i32>) -> tensor<1xi32>
    %298 = stablehlo.get_dimension_size %276, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %299 = stablehlo.reshape %298 : (tensor<i32>) -> tensor<1xi32>
    %300 = stablehlo.get_dimension_size %276, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %301 = stablehlo.reshape %300 : (tensor<i32>) -> tensor<1xi32>
    %302 = stablehlo.concatenate %297, %299, %301, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %303 = stablehlo.dynamic_broadcast_in_dim %cst_3, %302, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %304 = stablehlo.add %295, %303 : tensor<1x16x?xf32>
    %305 = stablehlo.multiply %304, %276 : tensor<1x16x?xf32>
    %306 = stablehlo.get_dimension_size %276, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %307 = stablehlo.reshape %306 : (tensor<i32>) -> tensor<1xi32>
    %308 = stablehlo.get_dimension_size %276, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %309 = stablehlo.reshape %308 : (tensor<i32>) -> tensor<1xi32>
    %310 = stablehlo.get_dimension_size %276, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %311 = stablehlo.reshape %310 : (tensor<i32>) -> tensor<1xi32>
    %312 = stablehlo.concatenate %307, %309, %311, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %313 = stablehlo.dynamic_broadcast_in_dim %cst_2, %312, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %314 = stablehlo.add %305, %313 : tensor<1x16x?xf32>
    %315 = stablehlo.multiply %314, %276 : tensor<1x16x?xf32>
    %316 = stablehlo.get_dimension_size %276, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %317 = stablehlo.reshape %316 : (tensor<i32>) -> tensor<1xi32>
    %318 = stablehlo.get_dimension_size %276, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %319 = stablehlo.reshape %318 : (tensor<i32>) -> tensor<1xi32>
    %320 = stablehlo.get_dimension_size %276, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %321 = stablehlo.reshape %320 : (tensor<i32>) -> tensor<1xi32>
    %322 = stablehlo.concatenate %317, %319, %321, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %323 = stablehlo.dynamic_broadcast_in_dim %cst_1, %322, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %324 = stablehlo.add %315, %323 : tensor<1x16x?xf32>
    %325 = stablehlo.multiply %324, %276 : tensor<1x16x?xf32>
    %326 = stablehlo.get_dimension_size %276, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %327 = stablehlo.reshape %326 : (tensor<i32>) -> tensor<1xi32>
    %328 = stablehlo.get_dimension_size %276, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %329 = stablehlo.reshape %328 : (tensor<i32>) -> tensor<1xi32>
    %330 = stablehlo.get_dimension_size %276, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %331 = stablehlo.reshape %330 : (tensor<i32>) -> tensor<1xi32>
    %332 = stablehlo.concatenate %327, %329, %331, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %333 = stablehlo.dynamic_broadcast_in_dim %cst_0, %332, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %334 = stablehlo.add %325, %333 : tensor<1x16x?xf32>
    %335 = stablehlo.multiply %334, %276 : tensor<1x16x?xf32>
    %336 = stablehlo.get_dimension_size %276, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %337 = stablehlo.reshape %336 : (tensor<i32>) -> tensor<1xi32>
    %338 = stablehlo.get_dimension_size %276, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %339 = stablehlo.reshape %338 : (tensor<i32>) -> tensor<1xi32>
    %340 = stablehlo.get_dimension_size %276, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %341 = stablehlo.reshape %340 : (tensor<i32>) -> tensor<1xi32>
    %342 = stablehlo.concatenate %337, %339, %341, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %343 = stablehlo.dynamic_broadcast_in_dim %cst, %342, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %344 = stablehlo.add %335, %343 : tensor<1x16x?xf32>
    %345 = stablehlo.multiply %54, %344 : tensor<1x16x?xf32>
    %346 = stablehlo.subtract %275, %345 : tensor<1x16x?xf32>
    %347 = stablehlo.abs %54 : tensor<1x16x?xf32>
    %348 = stablehlo.compare LT, %347, %275 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %349 = stablehlo.select %348, %346, %267 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %350 = stablehlo.multiply %44, %349 : tensor<1x16x?xf32>
    %351 = stablehlo.convolution(%350, %cst_37) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x?xf32>, tensor<16x16x3xf32>) -> tensor<1x16x?xf32>
    %352 = stablehlo.convert %arg0 : tensor<i64>
    %353 = stablehlo.add %352, %c_32 : tensor<i64>
    %354:2 = call @divmod(%arg0, %353, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %355 = stablehlo.add %354#0, %c_26 : tensor<i64>
    %356:2 = call @divmod(%arg0, %355, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %357 = stablehlo.add %356#0, %c_39 : tensor<i64>
    %358 = stablehlo.convert %357 : (tensor<i64>) -> tensor<i32>
    %359 = stablehlo.reshape %358 : (tensor<i32>) -> tensor<1xi32>
    %360 = stablehlo.concatenate %c_40, %c_30, %359, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %361 = stablehlo.dynamic_broadcast_in_dim %cst_28, %360, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %362 = stablehlo.multiply %361, %351 : tensor<1x16x?xf32>
    %363 = stablehlo.negate %351 : tensor<1x16x?xf32>
    %364 = stablehlo.convert %arg0 : tensor<i64>
    %365 = stablehlo.add %364, %c_32 : tensor<i64>
    %366:2 = call @divmod(%arg0, %365, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %367 = stablehlo.add %366#0, %c_26 : tensor<i64>
    %368:2 = call @divmod(%arg0, %367, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %369 = stablehlo.add %368#0, %c_39 : tensor<i64>
    %370 = stablehlo.convert %369 : (tensor<i64>) -> tensor<i32>
    %371 = stablehlo.reshape %370 : (tensor<i32>) -> tensor<1xi32>
    %372 = stablehlo.concatenate %c_40, %c_30, %371, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %373 = stablehlo.dynamic_broadcast_in_dim %cst_27, %372, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %374 = stablehlo.multiply %363, %373 : tensor<1x16x?xf32>
    %375 = stablehlo.multiply %374, %374 : tensor<1x16x?xf32>
    %376 = stablehlo.negate %375 : tensor<1x16x?xf32>
    %377 = stablehlo.abs %374 : tensor<1x16x?xf32>
    %378 = stablehlo.get_dimension_size %374, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %379 = stablehlo.reshape %378 : (tensor<i32>) -> tensor<1xi32>
    %380 = stablehlo.get_dimension_size %374, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %381 = stablehlo.reshape %380 : (tensor<i32>) -> tensor<1xi32>
    %382 = stablehlo.get_dimension_size %374, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %383 = stablehlo.reshape %382 : (tensor<i32>) -> tensor<1xi32>
    %384 = stablehlo.concatenate %379, %381, %383, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %385 = stablehlo.dynamic_broadcast_in_dim %cst_25, %384, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %386 = stablehlo.divide %385, %375 : tensor<1x16x?xf32>
    %387 = stablehlo.exponential %376 : tensor<1x16x?xf32>
    %388 = stablehlo.divide %385, %377 : tensor<1x16x?xf32>
    %389 = stablehlo.multiply %387, %388 : tensor<1x16x?xf32>
    %390 = stablehlo.get_dimension_size %374, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %391 = stablehlo.reshape %390 : (tensor<i32>) -> tensor<1xi32>
    %392 = stablehlo.get_dimension_size %374, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %393 = stablehlo.reshape %392 : (tensor<i32>) -> tensor<1xi32>
    %394 = stablehlo.get_dimension_size %374, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %395 = stablehlo.reshape %394 : (tensor<i32>) -> tensor<1xi32>
    %396 = stablehlo.concatenate %391, %393, %395, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %397 = stablehlo.dynamic_broadcast_in_dim %cst_24, %396, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %398 = stablehlo.compare LT, %377, %397 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %399 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %400 = stablehlo.reshape %399 : (tensor<i32>) -> tensor<1xi32>
    %401 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %402 = stablehlo.reshape %401 : (tensor<i32>) -> tensor<1xi32>
    %403 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %404 = stablehlo.reshape %403 : (tensor<i32>) -> tensor<1xi32>
    %405 = stablehlo.concatenate %400, %402, %404, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %406 = stablehlo.dynamic_broadcast_in_dim %cst_23, %405, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %407 = stablehlo.multiply %406, %386 : tensor<1x16x?xf32>
    %408 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %409 = stablehlo.reshape %408 : (tensor<i32>) -> tensor<1xi32>
    %410 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %411 = stablehlo.reshape %410 : (tensor<i32>) -> tensor<1xi32>
    %412 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %413 = stablehlo.reshape %412 : (tensor<i32>) -> tensor<1xi32>
    %414 = stablehlo.concatenate %409, %411, %413, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %415 = stablehlo.dynamic_broadcast_in_dim %cst_22, %414, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %416 = stablehlo.add %407, %415 : tensor<1x16x?xf32>
    %417 = stablehlo.multiply %416, %386 : tensor<1x16x?xf32>
    %418 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %419 = stablehlo.reshape %418 : (tensor<i32>) -> tensor<1xi32>
    %420 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %421 = stablehlo.reshape %420 : (tensor<i32>) -> tensor<1xi32>
    %422 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %423 = stablehlo.reshape %422 : (tensor<i32>) -> tensor<1xi32>
    %424 = stablehlo.concatenate %419, %421, %423, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %425 = stablehlo.dynamic_broadcast_in_dim %cst_21, %424, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %426 = stablehlo.add %417, %425 : tensor<1x16x?xf32>
    %427 = stablehlo.multiply %426, %386 : tensor<1x16x?xf32>
    %428 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %429 = stablehlo.reshape %428 : (tensor<i32>) -> tensor<1xi32>
    %430 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %431 = stablehlo.reshape %430 : (tensor<i32>) -> tensor<1xi32>
    %432 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %433 = stablehlo.reshape %432 : (tensor<i32>) -> tensor<1xi32>
    %434 = stablehlo.concatenate %429, %431, %433, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %435 = stablehlo.dynamic_broadcast_in_dim %cst_20, %434, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %436 = stablehlo.add %427, %435 : tensor<1x16x?xf32>
    %437 = stablehlo.multiply %436, %386 : tensor<1x16x?xf32>
    %438 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %439 = stablehlo.reshape %438 : (tensor<i32>) -> tensor<1xi32>
    %440 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %441 = stablehlo.reshape %440 : (tensor<i32>) -> tensor<1xi32>
    %442 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %443 = stablehlo.reshape %442 : (tensor<i32>) -> tensor<1xi32>
    %444 = stablehlo.concatenate %439, %441, %443, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %445 = stablehlo.dynamic_broadcast_in_dim %cst_19, %444, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %446 = stablehlo.add %437, %445 : tensor<1x16x?xf32>
    %447 = stablehlo.multiply %446, %386 : tensor<1x16x?xf32>
    %448 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %449 = stablehlo.reshape %448 : (tensor<i32>) -> tensor<1xi32>
    %450 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %451 = stablehlo.reshape %450 : (tensor<i32>) -> tensor<1xi32>
    %452 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %453 = stablehlo.reshape %452 : (tensor<i32>) -> tensor<1xi32>
    %454 = stablehlo.concatenate %449, %451, %453, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %455 = stablehlo.dynamic_broadcast_in_dim %cst_18, %454, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %456 = stablehlo.add %447, %455 : tensor<1x16x?xf32>
    %457 = stablehlo.multiply %456, %386 : tensor<1x16x?xf32>
    %458 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %459 = stablehlo.reshape %458 : (tensor<i32>) -> tensor<1xi32>
    %460 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %461 = stablehlo.reshape %460 : (tensor<i32>) -> tensor<1xi32>
    %462 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %463 = stablehlo.reshape %462 : (tensor<i32>) -> tensor<1xi32>
    %464 = stablehlo.concatenate %459, %461, %463, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %465 = stablehlo.dynamic_broadcast_in_dim %cst_17, %464, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %466 = stablehlo.add %457, %465 : tensor<1x16x?xf32>
    %467 = stablehlo.multiply %466, %386 : tensor<1x16x?xf32>
    %468 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %469 = stablehlo.reshape %468 : (tensor<i32>) -> tensor<1xi32>
    %470 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %471 = stablehlo.reshape %470 : (tensor<i32>) -> tensor<1xi32>
    %472 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %473 = stablehlo.reshape %472 : (tensor<i32>) -> tensor<1xi32>
    %474 = stablehlo.concatenate %469, %471, %473, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %475 = stablehlo.dynamic_broadcast_in_dim %cst_16, %474, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %476 = stablehlo.add %467, %475 : tensor<1x16x?xf32>
    %477 = stablehlo.multiply %476, %386 : tensor<1x16x?xf32>
    %478 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %479 = stablehlo.reshape %478 : (tensor<i32>) -> tensor<1xi32>
    %480 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %481 = stablehlo.reshape %480 : (tensor<i32>) -> tensor<1xi32>
    %482 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %483 = stablehlo.reshape %482 : (tensor<i32>) -> tensor<1xi32>
    %484 = stablehlo.concatenate %479, %481, %483, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %485 = stablehlo.dynamic_broadcast_in_dim %cst_15, %484, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %486 = stablehlo.add %477, %485 : tensor<1x16x?xf32>
    %487 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %488 = stablehlo.reshape %487 : (tensor<i32>) -> tensor<1xi32>
    %489 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %490 = stablehlo.reshape %489 : (tensor<i32>) -> tensor<1xi32>
    %491 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %492 = stablehlo.reshape %491 : (tensor<i32>) -> tensor<1xi32>
    %493 = stablehlo.concatenate %488, %490, %492, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %494 = stablehlo.dynamic_broadcast_in_dim %cst_14, %493, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %495 = stablehlo.multiply %494, %386 : tensor<1x16x?xf32>
    %496 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %497 = stablehlo.reshape %496 : (tensor<i32>) -> tensor<1xi32>
    %498 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %499 = stablehlo.reshape %498 : (tensor<i32>) -> tensor<1xi32>
    %500 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %501 = stablehlo.reshape %500 : (tensor<i32>) -> tensor<1xi32>
    %502 = stablehlo.concatenate %497, %499, %501, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %503 = stablehlo.dynamic_broadcast_in_dim %cst_13, %502, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %504 = stablehlo.add %495, %503 : tensor<1x16x?xf32>
    %505 = stablehlo.multiply %504, %386 : tensor<1x16x?xf32>
    %506 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %507 = stablehlo.reshape %506 : (tensor<i32>) -> tensor<1xi32>
    %508 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %509 = stablehlo.reshape %508 : (tensor<i32>) -> tensor<1xi32>
    %510 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %511 = stablehlo.reshape %510 : (tensor<i32>) -> tensor<1xi32>
    %512 = stablehlo.concatenate %507, %509, %511, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %513 = stablehlo.dynamic_broadcast_in_dim %cst_12, %512, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %514 = stablehlo.add %505, %513 : tensor<1x16x?xf32>
    %515 = stablehlo.multiply %514, %386 : tensor<1x16x?xf32>
    %516 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %517 = stablehlo.reshape %516 : (tensor<i32>) -> tensor<1xi32>
    %518 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %519 = stablehlo.reshape %518 : (tensor<i32>) -> tensor<1xi32>
    %520 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %521 = stablehlo.reshape %520 : (tensor<i32>) -> tensor<1xi32>
    %522 = stablehlo.concatenate %517, %519, %521, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %523 = stablehlo.dynamic_broadcast_in_dim %cst_11, %522, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %524 = stablehlo.add %515, %523 : tensor<1x16x?xf32>
    %525 = stablehlo.multiply %524, %386 : tensor<1x16x?xf32>
    %526 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %527 = stablehlo.reshape %526 : (tensor<i32>) -> tensor<1xi32>
    %528 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %529 = stablehlo.reshape %528 : (tensor<i32>) -> tensor<1xi32>
    %530 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %531 = stablehlo.reshape %530 : (tensor<i32>) -> tensor<1xi32>
    %532 = stablehlo.concatenate %527, %529, %531, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %533 = stablehlo.dynamic_broadcast_in_dim %cst_10, %532, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %534 = stablehlo.add %525, %533 : tensor<1x16x?xf32>
    %535 = stablehlo.multiply %534, %386 : tensor<1x16x?xf32>
    %536 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %537 = stablehlo.reshape %536 : (tensor<i32>) -> tensor<1xi32>
    %538 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %539 = stablehlo.reshape %538 : (tensor<i32>) -> tensor<1xi32>
    %540 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %541 = stablehlo.reshape %540 : (tensor<i32>) -> tensor<1xi32>
    %542 = stablehlo.concatenate %537, %539, %541, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %543 = stablehlo.dynamic_broadcast_in_dim %cst_9, %542, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %544 = stablehlo.add %535, %543 : tensor<1x16x?xf32>
    %545 = stablehlo.multiply %544, %386 : tensor<1x16x?xf32>
    %546 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %547 = stablehlo.reshape %546 : (tensor<i32>) -> tensor<1xi32>
    %548 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %549 = stablehlo.reshape %548 : (tensor<i32>) -> tensor<1xi32>
    %550 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %551 = stablehlo.reshape %550 : (tensor<i32>) -> tensor<1xi32>
    %552 = stablehlo.concatenate %547, %549, %551, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %553 = stablehlo.dynamic_broadcast_in_dim %cst_8, %552, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %554 = stablehlo.add %545, %553 : tensor<1x16x?xf32>
    %555 = stablehlo.multiply %554, %386 : tensor<1x16x?xf32>
    %556 = stablehlo.get_dimension_size %386, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %557 = stablehlo.reshape %556 : (tensor<i32>) -> tensor<1xi32>
    %558 = stablehlo.get_dimension_size %386, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %559 = stablehlo.reshape %558 : (tensor<i32>) -> tensor<1xi32>
    %560 = stablehlo.get_dimension_size %386, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %561 = stablehlo.reshape %560 : (tensor<i32>) -> tensor<1xi32>
    %562 = stablehlo.concatenate %557, %559, %561, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %563 = stablehlo.dynamic_broadcast_in_dim %cst_7, %562, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %564 = stablehlo.add %555, %563 : tensor<1x16x?xf32>
    %565 = stablehlo.select %398, %486, %564 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %566 = stablehlo.multiply %389, %565 : tensor<1x16x?xf32>
    %567 = stablehlo.get_dimension_size %374, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %568 = stablehlo.reshape %567 : (tensor<i32>) -> tensor<1xi32>
    %569 = stablehlo.get_dimension_size %374, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %570 = stablehlo.reshape %569 : (tensor<i32>) -> tensor<1xi32>
    %571 = stablehlo.get_dimension_size %374, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %572 = stablehlo.reshape %571 : (tensor<i32>) -> tensor<1xi32>
    %573 = stablehlo.concatenate %568, %570, %572, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %574 = stablehlo.dynamic_broadcast_in_dim %cst_6, %573, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %575 = stablehlo.compare LT, %376, %574 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %576 = stablehlo.get_dimension_size %374, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %577 = stablehlo.reshape %576 : (tensor<i32>) -> tensor<1xi32>
    %578 = stablehlo.get_dimension_size %374, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %579 = stablehlo.reshape %578 : (tensor<i32>) -> tensor<1xi32>
    %580 = stablehlo.get_dimension_size %374, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %581 = stablehlo.reshape %580 : (tensor<i32>) -> tensor<1xi32>
    %582 = stablehlo.concatenate %577, %579, %581, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %583 = stablehlo.dynamic_broadcast_in_dim %cst_33, %582, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %584 = stablehlo.select %575, %583, %566 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %585 = stablehlo.compare LT, %374, %583 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %586 = stablehlo.subtract %397, %584 : tensor<1x16x?xf32>
    %587 = stablehlo.select %585, %586, %584 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %588 = stablehlo.get_dimension_size %374, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %589 = stablehlo.reshape %588 : (tensor<i32>) -> tensor<1xi32>
    %590 = stablehlo.get_dimension_size %374, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %591 = stablehlo.reshape %590 : (tensor<i32>) -> tensor<1xi32>
    %592 = stablehlo.get_dimension_size %374, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %593 = stablehlo.reshape %592 : (tensor<i32>) -> tensor<1xi32>
    %594 = stablehlo.concatenate %589, %591, %593, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %595 = stablehlo.dynamic_broadcast_in_dim %cst_25, %594, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %596 = stablehlo.multiply %374, %374 : tensor<1x16x?xf32>
    %597 = stablehlo.get_dimension_size %596, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %598 = stablehlo.reshape %597 : (tensor<i32>) -> tensor<1xi32>
    %599 = stablehlo.get_dimension_size %596, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %600 = stablehlo.reshape %599 : (tensor<i32>) -> tensor<1xi32>
    %601 = stablehlo.get_dimension_size %596, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %602 = stablehlo.reshape %601 : (tensor<i32>) -> tensor<1xi32>
    %603 = stablehlo.concatenate %598, %600, %602, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %604 = stablehlo.dynamic_broadcast_in_dim %cst_5, %603, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %605 = stablehlo.multiply %604, %596 : tensor<1x16x?xf32>
    %606 = stablehlo.get_dimension_size %596, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %607 = stablehlo.reshape %606 : (tensor<i32>) -> tensor<1xi32>
    %608 = stablehlo.get_dimension_size %596, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %609 = stablehlo.reshape %608 : (tensor<i32>) -> tensor<1xi32>
    %610 = stablehlo.get_dimension_size %596, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %611 = stablehlo.reshape %610 : (tensor<i32>) -> tensor<1xi32>
    %612 = stablehlo.concatenate %607, %609, %611, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %613 = stablehlo.dynamic_broadcast_in_dim %cst_4, %612, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %614 = stablehlo.add %605, %613 : tensor<1x16x?xf32>
    %615 = stablehlo.multiply %614, %596 : tensor<1x16x?xf32>
    %616 = stablehlo.get_dimension_size %596, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %617 = stablehlo.reshape %616 : (tensor<i32>) -> tensor<1xi32>
    %618 = stablehlo.get_dimension_size %596, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %619 = stablehlo.reshape %618 : (tensor<i32>) -> tensor<1xi32>
    %620 = stablehlo.get_dimension_size %596, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %621 = stablehlo.reshape %620 : (tensor<i32>) -> tensor<1xi32>
    %622 = stablehlo.concatenate %617, %619, %621, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %623 = stablehlo.dynamic_broadcast_in_dim %cst_3, %622, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %624 = stablehlo.add %615, %623 : tensor<1x16x?xf32>
    %625 = stablehlo.multiply %624, %596 : tensor<1x16x?xf32>
    %626 = stablehlo.get_dimension_size %596, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %627 = stablehlo.reshape %626 : (tensor<i32>) -> tensor<1xi32>
    %628 = stablehlo.get_dimension_size %596, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %629 = stablehlo.reshape %628 : (tensor<i32>) -> tensor<1xi32>
    %630 = stablehlo.get_dimension_size %596, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %631 = stablehlo.reshape %630 : (tensor<i32>) -> tensor<1xi32>
    %632 = stablehlo.concatenate %627, %629, %631, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %633 = stablehlo.dynamic_broadcast_in_dim %cst_2, %632, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %634 = stablehlo.add %625, %633 : tensor<1x16x?xf32>
    %635 = stablehlo.multiply %634, %596 : tensor<1x16x?xf32>
    %636 = stablehlo.get_dimension_size %596, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %637 = stablehlo.reshape %636 : (tensor<i32>) -> tensor<1xi32>
    %638 = stablehlo.get_dimension_size %596, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %639 = stablehlo.reshape %638 : (tensor<i32>) -> tensor<1xi32>
    %640 = stablehlo.get_dimension_size %596, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %641 = stablehlo.reshape %640 : (tensor<i32>) -> tensor<1xi32>
    %642 = stablehlo.concatenate %637, %639, %641, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %643 = stablehlo.dynamic_broadcast_in_dim %cst_1, %642, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %644 = stablehlo.add %635, %643 : tensor<1x16x?xf32>
    %645 = stablehlo.multiply %644, %596 : tensor<1x16x?xf32>
    %646 = stablehlo.get_dimension_size %596, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %647 = stablehlo.reshape %646 : (tensor<i32>) -> tensor<1xi32>
    %648 = stablehlo.get_dimension_size %596, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %649 = stablehlo.reshape %648 : (tensor<i32>) -> tensor<1xi32>
    %650 = stablehlo.get_dimension_size %596, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %651 = stablehlo.reshape %650 : (tensor<i32>) -> tensor<1xi32>
    %652 = stablehlo.concatenate %647, %649, %651, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %653 = stablehlo.dynamic_broadcast_in_dim %cst_0, %652, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %654 = stablehlo.add %645, %653 : tensor<1x16x?xf32>
    %655 = stablehlo.multiply %654, %596 : tensor<1x16x?xf32>
    %656 = stablehlo.get_dimension_size %596, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %657 = stablehlo.reshape %656 : (tensor<i32>) -> tensor<1xi32>
    %658 = stablehlo.get_dimension_size %596, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %659 = stablehlo.reshape %658 : (tensor<i32>) -> tensor<1xi32>
    %660 = stablehlo.get_dimension_size %596, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %661 = stablehlo.reshape %660 : (tensor<i32>) -> tensor<1xi32>
    %662 = stablehlo.concatenate %657, %659, %661, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %663 = stablehlo.dynamic_broadcast_in_dim %cst, %662, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %664 = stablehlo.add %655, %663 : tensor<1x16x?xf32>
    %665 = stablehlo.multiply %374, %664 : tensor<1x16x?xf32>
    %666 = stablehlo.subtract %595, %665 : tensor<1x16x?xf32>
    %667 = stablehlo.abs %374 : tensor<1x16x?xf32>
    %668 = stablehlo.compare LT, %667, %595 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %669 = stablehlo.select %668, %666, %587 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %670 = stablehlo.multiply %362, %669 : tensor<1x16x?xf32>
    %671 = stablehlo.convolution(%670, %cst_38) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x?xf32>, tensor<16x16x3xf32>) -> tensor<1x16x?xf32>
    %672 = stablehlo.convert %arg0 : tensor<i64>
    %673 = stablehlo.add %672, %c_32 : tensor<i64>
    %674:2 = call @divmod(%arg0, %673, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %675 = stablehlo.add %674#0, %c_26 : tensor<i64>
    %676:2 = call @divmod(%arg0, %675, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %677 = stablehlo.add %676#0, %c_26 : tensor<i64>
    %678:2 = call @divmod(%arg0, %677, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %679 = stablehlo.add %678#0, %c_39 : tensor<i64>
    %680 = stablehlo.convert %679 : (tensor<i64>) -> tensor<i32>
    %681 = stablehlo.reshape %680 : (tensor<i32>) -> tensor<1xi32>
    %682 = stablehlo.concatenate %c_40, %c_30, %681, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %683 = stablehlo.dynamic_broadcast_in_dim %cst_28, %682, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %684 = stablehlo.multiply %683, %671 : tensor<1x16x?xf32>
    %685 = stablehlo.negate %671 : tensor<1x16x?xf32>
    %686 = stablehlo.convert %arg0 : tensor<i64>
    %687 = stablehlo.add %686, %c_32 : tensor<i64>
    %688:2 = call @divmod(%arg0, %687, %c_31) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %689 = stablehlo.add %688#0, %c_26 : tensor<i64>
    %690:2 = call @divmod(%arg0, %689, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %691 = stablehlo.add %690#0, %c_26 : tensor<i64>
    %692:2 = call @divmod(%arg0, %691, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %693 = stablehlo.add %692#0, %c_39 : tensor<i64>
    %694 = stablehlo.convert %693 : (tensor<i64>) -> tensor<i32>
    %695 = stablehlo.reshape %694 : (tensor<i32>) -> tensor<1xi32>
    %696 = stablehlo.concatenate %c_40, %c_30, %695, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %697 = stablehlo.dynamic_broadcast_in_dim %cst_27, %696, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %698 = stablehlo.multiply %685, %697 : tensor<1x16x?xf32>
    %699 = stablehlo.multiply %698, %698 : tensor<1x16x?xf32>
    %700 = stablehlo.negate %699 : tensor<1x16x?xf32>
    %701 = stablehlo.abs %698 : tensor<1x16x?xf32>
    %702 = stablehlo.get_dimension_size %698, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %703 = stablehlo.reshape %702 : (tensor<i32>) -> tensor<1xi32>
    %704 = stablehlo.get_dimension_size %698, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %705 = stablehlo.reshape %704 : (tensor<i32>) -> tensor<1xi32>
    %706 = stablehlo.get_dimension_size %698, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %707 = stablehlo.reshape %706 : (tensor<i32>) -> tensor<1xi32>
    %708 = stablehlo.concatenate %703, %705, %707, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %709 = stablehlo.dynamic_broadcast_in_dim %cst_25, %708, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %710 = stablehlo.divide %709, %699 : tensor<1x16x?xf32>
    %711 = stablehlo.exponential %700 : tensor<1x16x?xf32>
    %712 = stablehlo.divide %709, %701 : tensor<1x16x?xf32>
    %713 = stablehlo.multiply %711, %712 : tensor<1x16x?xf32>
    %714 = stablehlo.get_dimension_size %698, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %715 = stablehlo.reshape %714 : (tensor<i32>) -> tensor<1xi32>
    %716 = stablehlo.get_dimension_size %698, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %717 = stablehlo.reshape %716 : (tensor<i32>) -> tensor<1xi32>
    %718 = stablehlo.get_dimension_size %698, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %719 = stablehlo.reshape %718 : (tensor<i32>) -> tensor<1xi32>
    %720 = stablehlo.concatenate %715, %717, %719, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %721 = stablehlo.dynamic_broadcast_in_dim %cst_24, %720, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %722 = stablehlo.compare LT, %701, %721 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %723 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %724 = stablehlo.reshape %723 : (tensor<i32>) -> tensor<1xi32>
    %725 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %726 = stablehlo.reshape %725 : (tensor<i32>) -> tensor<1xi32>
    %727 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %728 = stablehlo.reshape %727 : (tensor<i32>) -> tensor<1xi32>
    %729 = stablehlo.concatenate %724, %726, %728, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %730 = stablehlo.dynamic_broadcast_in_dim %cst_23, %729, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %731 = stablehlo.multiply %730, %710 : tensor<1x16x?xf32>
    %732 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %733 = stablehlo.reshape %732 : (tensor<i32>) -> tensor<1xi32>
    %734 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %735 = stablehlo.reshape %734 : (tensor<i32>) -> tensor<1xi32>
    %736 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %737 = stablehlo.reshape %736 : (tensor<i32>) -> tensor<1xi32>
    %738 = stablehlo.concatenate %733, %735, %737, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %739 = stablehlo.dynamic_broadcast_in_dim %cst_22, %738, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %740 = stablehlo.add %731, %739 : tensor<1x16x?xf32>
    %741 = stablehlo.multiply %740, %710 : tensor<1x16x?xf32>
    %742 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %743 = stablehlo.reshape %742 : (tensor<i32>) -> tensor<1xi32>
    %744 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %745 = stablehlo.reshape %744 : (tensor<i32>) -> tensor<1xi32>
    %746 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %747 = stablehlo.reshape %746 : (tensor<i32>) -> tensor<1xi32>
    %748 = stablehlo.concatenate %743, %745, %747, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %749 = stablehlo.dynamic_broadcast_in_dim %cst_21, %748, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %750 = stablehlo.add %741, %749 : tensor<1x16x?xf32>
    %751 = stablehlo.multiply %750, %710 : tensor<1x16x?xf32>
    %752 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %753 = stablehlo.reshape %752 : (tensor<i32>) -> tensor<1xi32>
    %754 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %755 = stablehlo.reshape %754 : (tensor<i32>) -> tensor<1xi32>
    %756 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %757 = stablehlo.reshape %756 : (tensor<i32>) -> tensor<1xi32>
    %758 = stablehlo.concatenate %753, %755, %757, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %759 = stablehlo.dynamic_broadcast_in_dim %cst_20, %758, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %760 = stablehlo.add %751, %759 : tensor<1x16x?xf32>
    %761 = stablehlo.multiply %760, %710 : tensor<1x16x?xf32>
    %762 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %763 = stablehlo.reshape %762 : (tensor<i32>) -> tensor<1xi32>
    %764 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %765 = stablehlo.reshape %764 : (tensor<i32>) -> tensor<1xi32>
    %766 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %767 = stablehlo.reshape %766 : (tensor<i32>) -> tensor<1xi32>
    %768 = stablehlo.concatenate %763, %765, %767, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %769 = stablehlo.dynamic_broadcast_in_dim %cst_19, %768, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %770 = stablehlo.add %761, %769 : tensor<1x16x?xf32>
    %771 = stablehlo.multiply %770, %710 : tensor<1x16x?xf32>
    %772 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %773 = stablehlo.reshape %772 : (tensor<i32>) -> tensor<1xi32>
    %774 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %775 = stablehlo.reshape %774 : (tensor<i32>) -> tensor<1xi32>
    %776 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %777 = stablehlo.reshape %776 : (tensor<i32>) -> tensor<1xi32>
    %778 = stablehlo.concatenate %773, %775, %777, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %779 = stablehlo.dynamic_broadcast_in_dim %cst_18, %778, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %780 = stablehlo.add %771, %779 : tensor<1x16x?xf32>
    %781 = stablehlo.multiply %780, %710 : tensor<1x16x?xf32>
    %782 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %783 = stablehlo.reshape %782 : (tensor<i32>) -> tensor<1xi32>
    %784 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %785 = stablehlo.reshape %784 : (tensor<i32>) -> tensor<1xi32>
    %786 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %787 = stablehlo.reshape %786 : (tensor<i32>) -> tensor<1xi32>
    %788 = stablehlo.concatenate %783, %785, %787, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %789 = stablehlo.dynamic_broadcast_in_dim %cst_17, %788, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %790 = stablehlo.add %781, %789 : tensor<1x16x?xf32>
    %791 = stablehlo.multiply %790, %710 : tensor<1x16x?xf32>
    %792 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %793 = stablehlo.reshape %792 : (tensor<i32>) -> tensor<1xi32>
    %794 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %795 = stablehlo.reshape %794 : (tensor<i32>) -> tensor<1xi32>
    %796 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %797 = stablehlo.reshape %796 : (tensor<i32>) -> tensor<1xi32>
    %798 = stablehlo.concatenate %793, %795, %797, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %799 = stablehlo.dynamic_broadcast_in_dim %cst_16, %798, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %800 = stablehlo.add %791, %799 : tensor<1x16x?xf32>
    %801 = stablehlo.multiply %800, %710 : tensor<1x16x?xf32>
    %802 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %803 = stablehlo.reshape %802 : (tensor<i32>) -> tensor<1xi32>
    %804 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %805 = stablehlo.reshape %804 : (tensor<i32>) -> tensor<1xi32>
    %806 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %807 = stablehlo.reshape %806 : (tensor<i32>) -> tensor<1xi32>
    %808 = stablehlo.concatenate %803, %805, %807, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %809 = stablehlo.dynamic_broadcast_in_dim %cst_15, %808, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %810 = stablehlo.add %801, %809 : tensor<1x16x?xf32>
    %811 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %812 = stablehlo.reshape %811 : (tensor<i32>) -> tensor<1xi32>
    %813 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %814 = stablehlo.reshape %813 : (tensor<i32>) -> tensor<1xi32>
    %815 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %816 = stablehlo.reshape %815 : (tensor<i32>) -> tensor<1xi32>
    %817 = stablehlo.concatenate %812, %814, %816, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %818 = stablehlo.dynamic_broadcast_in_dim %cst_14, %817, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %819 = stablehlo.multiply %818, %710 : tensor<1x16x?xf32>
    %820 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %821 = stablehlo.reshape %820 : (tensor<i32>) -> tensor<1xi32>
    %822 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %823 = stablehlo.reshape %822 : (tensor<i32>) -> tensor<1xi32>
    %824 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %825 = stablehlo.reshape %824 : (tensor<i32>) -> tensor<1xi32>
    %826 = stablehlo.concatenate %821, %823, %825, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %827 = stablehlo.dynamic_broadcast_in_dim %cst_13, %826, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %828 = stablehlo.add %819, %827 : tensor<1x16x?xf32>
    %829 = stablehlo.multiply %828, %710 : tensor<1x16x?xf32>
    %830 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %831 = stablehlo.reshape %830 : (tensor<i32>) -> tensor<1xi32>
    %832 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %833 = stablehlo.reshape %832 : (tensor<i32>) -> tensor<1xi32>
    %834 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %835 = stablehlo.reshape %834 : (tensor<i32>) -> tensor<1xi32>
    %836 = stablehlo.concatenate %831, %833, %835, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %837 = stablehlo.dynamic_broadcast_in_dim %cst_12, %836, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %838 = stablehlo.add %829, %837 : tensor<1x16x?xf32>
    %839 = stablehlo.multiply %838, %710 : tensor<1x16x?xf32>
    %840 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %841 = stablehlo.reshape %840 : (tensor<i32>) -> tensor<1xi32>
    %842 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %843 = stablehlo.reshape %842 : (tensor<i32>) -> tensor<1xi32>
    %844 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %845 = stablehlo.reshape %844 : (tensor<i32>) -> tensor<1xi32>
    %846 = stablehlo.concatenate %841, %843, %845, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %847 = stablehlo.dynamic_broadcast_in_dim %cst_11, %846, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %848 = stablehlo.add %839, %847 : tensor<1x16x?xf32>
    %849 = stablehlo.multiply %848, %710 : tensor<1x16x?xf32>
    %850 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %851 = stablehlo.reshape %850 : (tensor<i32>) -> tensor<1xi32>
    %852 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %853 = stablehlo.reshape %852 : (tensor<i32>) -> tensor<1xi32>
    %854 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %855 = stablehlo.reshape %854 : (tensor<i32>) -> tensor<1xi32>
    %856 = stablehlo.concatenate %851, %853, %855, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %857 = stablehlo.dynamic_broadcast_in_dim %cst_10, %856, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %858 = stablehlo.add %849, %857 : tensor<1x16x?xf32>
    %859 = stablehlo.multiply %858, %710 : tensor<1x16x?xf32>
    %860 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %861 = stablehlo.reshape %860 : (tensor<i32>) -> tensor<1xi32>
    %862 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %863 = stablehlo.reshape %862 : (tensor<i32>) -> tensor<1xi32>
    %864 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %865 = stablehlo.reshape %864 : (tensor<i32>) -> tensor<1xi32>
    %866 = stablehlo.concatenate %861, %863, %865, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %867 = stablehlo.dynamic_broadcast_in_dim %cst_9, %866, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %868 = stablehlo.add %859, %867 : tensor<1x16x?xf32>
    %869 = stablehlo.multiply %868, %710 : tensor<1x16x?xf32>
    %870 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %871 = stablehlo.reshape %870 : (tensor<i32>) -> tensor<1xi32>
    %872 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %873 = stablehlo.reshape %872 : (tensor<i32>) -> tensor<1xi32>
    %874 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %875 = stablehlo.reshape %874 : (tensor<i32>) -> tensor<1xi32>
    %876 = stablehlo.concatenate %871, %873, %875, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %877 = stablehlo.dynamic_broadcast_in_dim %cst_8, %876, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %878 = stablehlo.add %869, %877 : tensor<1x16x?xf32>
    %879 = stablehlo.multiply %878, %710 : tensor<1x16x?xf32>
    %880 = stablehlo.get_dimension_size %710, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %881 = stablehlo.reshape %880 : (tensor<i32>) -> tensor<1xi32>
    %882 = stablehlo.get_dimension_size %710, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %883 = stablehlo.reshape %882 : (tensor<i32>) -> tensor<1xi32>
    %884 = stablehlo.get_dimension_size %710, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %885 = stablehlo.reshape %884 : (tensor<i32>) -> tensor<1xi32>
    %886 = stablehlo.concatenate %881, %883, %885, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %887 = stablehlo.dynamic_broadcast_in_dim %cst_7, %886, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %888 = stablehlo.add %879, %887 : tensor<1x16x?xf32>
    %889 = stablehlo.select %722, %810, %888 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %890 = stablehlo.multiply %713, %889 : tensor<1x16x?xf32>
    %891 = stablehlo.get_dimension_size %698, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %892 = stablehlo.reshape %891 : (tensor<i32>) -> tensor<1xi32>
    %893 = stablehlo.get_dimension_size %698, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %894 = stablehlo.reshape %893 : (tensor<i32>) -> tensor<1xi32>
    %895 = stablehlo.get_dimension_size %698, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %896 = stablehlo.reshape %895 : (tensor<i32>) -> tensor<1xi32>
    %897 = stablehlo.concatenate %892, %894, %896, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %898 = stablehlo.dynamic_broadcast_in_dim %cst_6, %897, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %899 = stablehlo.compare LT, %700, %898 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %900 = stablehlo.get_dimension_size %698, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %901 = stablehlo.reshape %900 : (tensor<i32>) -> tensor<1xi32>
    %902 = stablehlo.get_dimension_size %698, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %903 = stablehlo.reshape %902 : (tensor<i32>) -> tensor<1xi32>
    %904 = stablehlo.get_dimension_size %698, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %905 = stablehlo.reshape %904 : (tensor<i32>) -> tensor<1xi32>
    %906 = stablehlo.concatenate %901, %903, %905, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %907 = stablehlo.dynamic_broadcast_in_dim %cst_33, %906, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %908 = stablehlo.select %899, %907, %890 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %909 = stablehlo.compare LT, %698, %907 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %910 = stablehlo.subtract %721, %908 : tensor<1x16x?xf32>
    %911 = stablehlo.select %909, %910, %908 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %912 = stablehlo.get_dimension_size %698, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %913 = stablehlo.reshape %912 : (tensor<i32>) -> tensor<1xi32>
    %914 = stablehlo.get_dimension_size %698, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %915 = stablehlo.reshape %914 : (tensor<i32>) -> tensor<1xi32>
    %916 = stablehlo.get_dimension_size %698, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %917 = stablehlo.reshape %916 : (tensor<i32>) -> tensor<1xi32>
    %918 = stablehlo.concatenate %913, %915, %917, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %919 = stablehlo.dynamic_broadcast_in_dim %cst_25, %918, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %920 = stablehlo.multiply %698, %698 : tensor<1x16x?xf32>
    %921 = stablehlo.get_dimension_size %920, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %922 = stablehlo.reshape %921 : (tensor<i32>) -> tensor<1xi32>
    %923 = stablehlo.get_dimension_size %920, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %924 = stablehlo.reshape %923 : (tensor<i32>) -> tensor<1xi32>
    %925 = stablehlo.get_dimension_size %920, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %926 = stablehlo.reshape %925 : (tensor<i32>) -> tensor<1xi32>
    %927 = stablehlo.concatenate %922, %924, %926, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %928 = stablehlo.dynamic_broadcast_in_dim %cst_5, %927, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %929 = stablehlo.multiply %928, %920 : tensor<1x16x?xf32>
    %930 = stablehlo.get_dimension_size %920, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %931 = stablehlo.reshape %930 : (tensor<i32>) -> tensor<1xi32>
    %932 = stablehlo.get_dimension_size %920, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %933 = stablehlo.reshape %932 : (tensor<i32>) -> tensor<1xi32>
    %934 = stablehlo.get_dimension_size %920, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %935 = stablehlo.reshape %934 : (tensor<i32>) -> tensor<1xi32>
    %936 = stablehlo.concatenate %931, %933, %935, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %937 = stablehlo.dynamic_broadcast_in_dim %cst_4, %936, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %938 = stablehlo.add %929, %937 : tensor<1x16x?xf32>
    %939 = stablehlo.multiply %938, %920 : tensor<1x16x?xf32>
    %940 = stablehlo.get_dimension_size %920, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %941 = stablehlo.reshape %940 : (tensor<i32>) -> tensor<1xi32>
    %942 = stablehlo.get_dimension_size %920, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %943 = stablehlo.reshape %942 : (tensor<i32>) -> tensor<1xi32>
    %944 = stablehlo.get_dimension_size %920, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %945 = stablehlo.reshape %944 : (tensor<i32>) -> tensor<1xi32>
    %946 = stablehlo.concatenate %941, %943, %945, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %947 = stablehlo.dynamic_broadcast_in_dim %cst_3, %946, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %948 = stablehlo.add %939, %947 : tensor<1x16x?xf32>
    %949 = stablehlo.multiply %948, %920 : tensor<1x16x?xf32>
    %950 = stablehlo.get_dimension_size %920, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %951 = stablehlo.reshape %950 : (tensor<i32>) -> tensor<1xi32>
    %952 = stablehlo.get_dimension_size %920, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %953 = stablehlo.reshape %952 : (tensor<i32>) -> tensor<1xi32>
    %954 = stablehlo.get_dimension_size %920, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %955 = stablehlo.reshape %954 : (tensor<i32>) -> tensor<1xi32>
    %956 = stablehlo.concatenate %951, %953, %955, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %957 = stablehlo.dynamic_broadcast_in_dim %cst_2, %956, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %958 = stablehlo.add %949, %957 : tensor<1x16x?xf32>
    %959 = stablehlo.multiply %958, %920 : tensor<1x16x?xf32>
    %960 = stablehlo.get_dimension_size %920, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %961 = stablehlo.reshape %960 : (tensor<i32>) -> tensor<1xi32>
    %962 = stablehlo.get_dimension_size %920, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %963 = stablehlo.reshape %962 : (tensor<i32>) -> tensor<1xi32>
    %964 = stablehlo.get_dimension_size %920, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %965 = stablehlo.reshape %964 : (tensor<i32>) -> tensor<1xi32>
    %966 = stablehlo.concatenate %961, %963, %965, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %967 = stablehlo.dynamic_broadcast_in_dim %cst_1, %966, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %968 = stablehlo.add %959, %967 : tensor<1x16x?xf32>
    %969 = stablehlo.multiply %968, %920 : tensor<1x16x?xf32>
    %970 = stablehlo.get_dimension_size %920, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %971 = stablehlo.reshape %970 : (tensor<i32>) -> tensor<1xi32>
    %972 = stablehlo.get_dimension_size %920, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %973 = stablehlo.reshape %972 : (tensor<i32>) -> tensor<1xi32>
    %974 = stablehlo.get_dimension_size %920, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %975 = stablehlo.reshape %974 : (tensor<i32>) -> tensor<1xi32>
    %976 = stablehlo.concatenate %971, %973, %975, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %977 = stablehlo.dynamic_broadcast_in_dim %cst_0, %976, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %978 = stablehlo.add %969, %977 : tensor<1x16x?xf32>
    %979 = stablehlo.multiply %978, %920 : tensor<1x16x?xf32>
    %980 = stablehlo.get_dimension_size %920, dim = 0 : (tensor<1x16x?xf32>) -> tensor<i32>
    %981 = stablehlo.reshape %980 : (tensor<i32>) -> tensor<1xi32>
    %982 = stablehlo.get_dimension_size %920, dim = 1 : (tensor<1x16x?xf32>) -> tensor<i32>
    %983 = stablehlo.reshape %982 : (tensor<i32>) -> tensor<1xi32>
    %984 = stablehlo.get_dimension_size %920, dim = 2 : (tensor<1x16x?xf32>) -> tensor<i32>
    %985 = stablehlo.reshape %984 : (tensor<i32>) -> tensor<1xi32>
    %986 = stablehlo.concatenate %981, %983, %985, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %987 = stablehlo.dynamic_broadcast_in_dim %cst, %986, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %988 = stablehlo.add %979, %987 : tensor<1x16x?xf32>
    %989 = stablehlo.multiply %698, %988 : tensor<1x16x?xf32>
    %990 = stablehlo.subtract %919, %989 : tensor<1x16x?xf32>
    %991 = stablehlo.abs %698 : tensor<1x16x?xf32>
    %992 = stablehlo.compare LT, %991, %919 : (tensor<1x16x?xf32>, tensor<1x16x?xf32>) -> tensor<1x16x?xi1>
    %993 = stablehlo.select %992, %990, %911 : tensor<1x16x?xi1>, tensor<1x16x?xf32>
    %994 = stablehlo.multiply %684, %993 : tensor<1x16x?xf32>
    return %994 : tensor<1x16x?xf32>
  }
  func.func private @divmod(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<i64>, %arg2: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
    %0 = call @floor_divide(%arg0, %arg1, %arg2) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<i64>
    %1 = call @remainder(%arg0, %arg1, %arg2) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<i64>
    return %0, %1 : tensor<i64>, tensor<i64>
  }
  func.func private @floor_divide(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<i64> {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.divide %arg1, %arg2 : tensor<i64>
    %1 = stablehlo.sign %arg1 : tensor<i64>
    %2 = stablehlo.sign %arg2 : tensor<i64>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %4 = stablehlo.remainder %arg1, %arg2 : tensor<i64>
    %5 = stablehlo.compare NE, %4, %c_0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %6 = stablehlo.and %3, %5 : tensor<i1>
    %7 = stablehlo.subtract %0, %c : tensor<i64>
    %8 = call @_where(%arg0, %6, %7, %0) : (tensor<i64>, tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    return %8 : tensor<i64>
  }
  func.func private @_where(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<i1>, %arg2: tensor<i64>, %arg3: tensor<i64>) -> tensor<i64> {
    %0 = stablehlo.select %arg1, %arg2, %arg3 : tensor<i1>, tensor<i64>
    return %0 : tensor<i64>
  }
  func.func private @remainder(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<i64> {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.compare EQ, %arg2, %c_0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %1 = call @_where(%arg0, %0, %c, %arg2) : (tensor<i64>, tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    %2 = stablehlo.remainder %arg1, %1 : tensor<i64>
    %3 = stablehlo.compare NE, %2, %c_0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %4 = stablehlo.compare LT, %2, %c_0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %5 = stablehlo.compare LT, %1, %c_0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i64>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i64>
    return %9 : tensor<i64>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<1x16x?xf32>, %arg2: tensor<i64>) -> tensor<16x?xf32> {
    %c = stablehlo.constant dense<0> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %c_3 = stablehlo.constant dense<1> : tensor<i64>
    %c_4 = stablehlo.constant dense<5> : tensor<i64>
    %c_5 = stablehlo.constant dense<-10> : tensor<i64>
    %0 = stablehlo.convert %arg0 : tensor<i64>
    %1 = stablehlo.add %0, %c_5 : tensor<i64>
    %2:2 = call @divmod(%arg0, %1, %c_4) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %3 = stablehlo.convert %arg0 : tensor<i64>
    %4 = stablehlo.add %3, %c_5 : tensor<i64>
    %5:2 = call @divmod(%arg0, %4, %c_4) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %6 = stablehlo.add %5#0, %c_3 : tensor<i64>
    %7 = stablehlo.convert %6 : (tensor<i64>) -> tensor<i32>
    %8 = stablehlo.reshape %7 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %c_1, %c_0, %8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %10 = stablehlo.concatenate %c, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %11 = stablehlo.convert %arg2 : (tensor<i64>) -> tensor<i32>
    %12 = stablehlo.reshape %11 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.convert %c_2 : (tensor<i64>) -> tensor<i32>
    %14 = stablehlo.reshape %13 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.convert %c_2 : (tensor<i64>) -> tensor<i32>
    %16 = stablehlo.reshape %15 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.concatenate %12, %14, %16, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %18 = stablehlo.convert %arg0 : tensor<i64>
    %19 = stablehlo.add %18, %c_5 : tensor<i64>
    %20:2 = call @divmod(%arg0, %19, %c_4) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %21 = stablehlo.add %20#0, %c_3 : tensor<i64>
    %22 = stablehlo.convert %21 : (tensor<i64>) -> tensor<i32>
    %23 = stablehlo.reshape %22 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %c_1, %c_0, %23, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %25 = stablehlo.subtract %24, %9 : tensor<3xi32>
    %26 = stablehlo.clamp %10, %17, %25 : tensor<3xi32>
    %27 = stablehlo.add %26, %9 : tensor<3xi32>
    %28 = stablehlo.concatenate %c_1, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.real_dynamic_slice %arg1, %26, %27, %28 : (tensor<1x16x?xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %30 = stablehlo.convert %arg0 : tensor<i64>
    %31 = stablehlo.add %30, %c_5 : tensor<i64>
    %32:2 = call @divmod(%arg0, %31, %c_4) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %33 = stablehlo.add %32#0, %c_3 : tensor<i64>
    %34 = stablehlo.convert %33 : (tensor<i64>) -> tensor<i32>
    %35 = stablehlo.reshape %34 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %c_0, %35, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %37 = stablehlo.dynamic_reshape %29, %36 : (tensor<1x16x?xf32>, tensor<2xi32>) -> tensor<16x?xf32>
    return %37 : tensor<16x?xf32>
  }
  func.func private @closed_call(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<16x?xf32>) -> (tensor<16x?xf32>, tensor<16x1xf32>, tensor<16x1xf32>) {
    %c = stablehlo.constant dense<16> : tensor<1xi32>
    %cst = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_2 = stablehlo.constant dense<1> : tensor<i64>
    %c_3 = stablehlo.constant dense<5> : tensor<i64>
    %c_4 = stablehlo.constant dense<-10> : tensor<i64>
    %0 = stablehlo.convert %arg0 : tensor<i64>
    %1 = stablehlo.add %0, %c_4 : tensor<i64>
    %2:2 = call @divmod(%arg0, %1, %c_3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %3 = stablehlo.add %2#0, %c_2 : tensor<i64>
    %4 = stablehlo.convert %3 : (tensor<i64>) -> tensor<f32>
    %5 = stablehlo.reduce(%arg1 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x?xf32>, tensor<f32>) -> tensor<16xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %7 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %8 = stablehlo.divide %6, %7 : tensor<16x1xf32>
    %9 = call @_var(%arg0, %arg1, %c_0) : (tensor<i64>, tensor<16x?xf32>, tensor<i64>) -> tensor<16x1xf32>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %11 = stablehlo.add %9, %10 : tensor<16x1xf32>
    %12 = stablehlo.rsqrt %11 : tensor<16x1xf32>
    %13 = stablehlo.convert %arg0 : tensor<i64>
    %14 = stablehlo.add %13, %c_4 : tensor<i64>
    %15:2 = call @divmod(%arg0, %14, %c_3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %16 = stablehlo.add %15#0, %c_2 : tensor<i64>
    %17 = stablehlo.convert %16 : (tensor<i64>) -> tensor<i32>
    %18 = stablehlo.reshape %17 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %c, %18, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %8, %19, dims = [0, 1] : (tensor<16x1xf32>, tensor<2xi32>) -> tensor<16x?xf32>
    %21 = stablehlo.subtract %arg1, %20 : tensor<16x?xf32>
    %22 = stablehlo.convert %arg0 : tensor<i64>
    %23 = stablehlo.add %22, %c_4 : tensor<i64>
    %24:2 = call @divmod(%arg0, %23, %c_3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %25 = stablehlo.add %24#0, %c_2 : tensor<i64>
    %26 = stablehlo.convert %25 : (tensor<i64>) -> tensor<i32>
    %27 = stablehlo.reshape %26 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %c, %27, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %12, %28, dims = [0, 1] : (tensor<16x1xf32>, tensor<2xi32>) -> tensor<16x?xf32>
    %30 = stablehlo.multiply %21, %29 : tensor<16x?xf32>
    return %30, %8, %12 : tensor<16x?xf32>, tensor<16x1xf32>, tensor<16x1xf32>
  }
  func.func private @_var(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<16x?xf32>, %arg2: tensor<i64>) -> tensor<16x1xf32> {
    %cst = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %c = stablehlo.constant dense<16> : tensor<1xi32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_1 = stablehlo.constant dense<1> : tensor<i64>
    %c_2 = stablehlo.constant dense<5> : tensor<i64>
    %c_3 = stablehlo.constant dense<-10> : tensor<i64>
    %0 = stablehlo.convert %arg0 : tensor<i64>
    %1 = stablehlo.add %0, %c_3 : tensor<i64>
    %2:2 = call @divmod(%arg0, %1, %c_2) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %3 = stablehlo.add %2#0, %c_1 : tensor<i64>
    %4 = stablehlo.convert %3 : (tensor<i64>) -> tensor<f32>
    %5 = stablehlo.reduce(%arg1 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<16x?xf32>, tensor<f32>) -> tensor<16xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %7 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %8 = stablehlo.divide %6, %7 : tensor<16x1xf32>
    %9 = stablehlo.convert %arg0 : tensor<i64>
    %10 = stablehlo.add %9, %c_3 : tensor<i64>
    %11:2 = call @divmod(%arg0, %10, %c_2) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %12 = stablehlo.add %11#0, %c_1 : tensor<i64>
    %13 = stablehlo.convert %12 : (tensor<i64>) -> tensor<i32>
    %14 = stablehlo.reshape %13 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %c, %14, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %8, %15, dims = [0, 1] : (tensor<16x1xf32>, tensor<2xi32>) -> tensor<16x?xf32>
    %17 = stablehlo.subtract %arg1, %16 : tensor<16x?xf32>
    %18 = stablehlo.multiply %17, %17 : tensor<16x?xf32>
    %19 = stablehlo.convert %arg0 : tensor<i64>
    %20 = stablehlo.add %19, %c_3 : tensor<i64>
    %21:2 = call @divmod(%arg0, %20, %c_2) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %22 = stablehlo.add %21#0, %c_1 : tensor<i64>
    %23 = stablehlo.convert %22 : (tensor<i64>) -> tensor<f32>
    %24 = stablehlo.convert %arg2 : (tensor<i64>) -> tensor<f32>
    %25 = stablehlo.subtract %23, %24 : tensor<f32>
    %26 = stablehlo.reduce(%18 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<16x?xf32>, tensor<f32>) -> tensor<16xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %28 = stablehlo.broadcast_in_dim %25, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %29 = stablehlo.divide %27, %28 : tensor<16x1xf32>
    %30 = stablehlo.compare GT, %25, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %31 = call @_where_0(%arg0, %30, %29, %cst) : (tensor<i64>, tensor<i1>, tensor<16x1xf32>, tensor<f64>) -> tensor<16x1xf32>
    return %31 : tensor<16x1xf32>
  }
  func.func private @_where_0(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<i1>, %arg2: tensor<16x1xf32>, %arg3: tensor<f64>) -> tensor<16x1xf32> {
    %0 = stablehlo.convert %arg3 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %2 = stablehlo.select %arg1, %arg2, %1 : tensor<i1>, tensor<16x1xf32>
    return %2 : tensor<16x1xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<1x16x?xf32>, %arg2: tensor<16x?xf32>, %arg3: tensor<i64>) -> tensor<1x16x?xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %c_0 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<i64>
    %c_3 = stablehlo.constant dense<5> : tensor<i64>
    %c_4 = stablehlo.constant dense<-10> : tensor<i64>
    %0 = stablehlo.convert %arg0 : tensor<i64>
    %1 = stablehlo.add %0, %c_4 : tensor<i64>
    %2:2 = call @divmod(%arg0, %1, %c_3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %3 = stablehlo.add %2#0, %c_2 : tensor<i64>
    %4 = stablehlo.convert %3 : (tensor<i64>) -> tensor<i32>
    %5 = stablehlo.reshape %4 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %c_1, %c_0, %5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %arg2, %6, dims = [1, 2] : (tensor<16x?xf32>, tensor<3xi32>) -> tensor<1x16x?xf32>
    %8 = stablehlo.convert %arg0 : tensor<i64>
    %9 = stablehlo.add %8, %c_4 : tensor<i64>
    %10:2 = call @divmod(%arg0, %9, %c_3) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    %11 = stablehlo.dynamic_update_slice %arg1, %7, %arg3, %c, %c : (tensor<1x16x?xf32>, tensor<1x16x?xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<1x16x?xf32>
    return %11 : tensor<1x16x?xf32>
  }
  func.func private @dynamic_update_index_in_dim_1(%arg0: tensor<i64> {jax.global_constant = "s76"}, %arg1: tensor<1x16x1xf32>, %arg2: tensor<16x1xf32>, %arg3: tensor<i64>) -> tensor<1x16x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [1, 2] : (tensor<16x1xf32>) -> tensor<1x16x1xf32>
    %1 = stablehlo.dynamic_update_slice %arg1, %0, %arg3, %c, %c : (tensor<1x16x1xf32>, tensor<1x16x1xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<1x16x1xf32>
    return %1 : tensor<1x16x1xf32>
  }
}
